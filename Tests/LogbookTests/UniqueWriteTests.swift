import Foundation
import Logbook
import RunMateTestSupport
import Testing
import TrainingDomain

/// Names the database keeps unique, decided inside the write transaction (issue 21, case 3).
@Suite struct UniqueWriteTests {
  /// Two handles on one file (as two processes): the second `createProfile` of a name is refused by the UNIQUE
  /// constraint and changes nothing; the first profile is the default.
  @Test func aSecondProfileOfANameIsRefusedByTheDatabase() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("runmate.sqlite").path
    let first = try LogbookDatabase(path: path)
    let second = try LogbookDatabase(path: path)
    var ana = Profile(name: "ana")
    ana.timeZone = "UTC"
    let created = try first.createProfile(ana)
    #expect(created.isDefault)
    var other = Profile(name: "ana")
    other.timeZone = "Europe/Berlin"
    #expect(throws: LogbookError.profileExists(name: "ana")) { try second.createProfile(other) }
    #expect(try second.profiles() == [created])
    #expect(
      LogbookError.profileExists(name: "ana").message(naming: { $0 == .profile ? "--profile" : "?" })
        == "profile 'ana' exists: `runmate profile set --profile ana …` changes it")
    // A second name is not the default unless asked.
    #expect(try second.createProfile(Profile(name: "bo")).isDefault == false)
    #expect(try first.profile(named: nil)?.name == "ana")
  }

  /// `updateProfile` changes the profile as stored when it writes: a change made through another handle after this
  /// one read the profile is kept.
  @Test func anUpdateKeepsAChangeMadeMeanwhile() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("runmate.sqlite").path
    let first = try LogbookDatabase(path: path)
    let second = try LogbookDatabase(path: path)
    try first.createProfile(Profile(name: "ana"))
    try second.updateProfile(named: "ana") { stored in
      var changed = stored
      changed.weightKg = 60
      return changed
    }
    let updated = try first.updateProfile(named: nil) { stored in
      var changed = stored
      changed.maxHeartRate = 190
      return changed
    }
    #expect(updated.weightKg == 60 && updated.maxHeartRate == 190 && updated.isDefault)
    #expect(throws: LogbookError.noSuchProfile(name: "cy", known: ["ana"])) {
      try first.updateProfile(named: "cy") { $0 }
    }
  }
}
