import Activity
import Foundation
import RunMateTestSupport
import Testing

/// `runmate workouts --garmin MOUNT [--days N]` (issue 25) on fake watch mounts made of real folders and files: the
/// next days' FIT files land in GARMIN/NewFiles; a folder that is not a Garmin mount is refused with 66, one that
/// cannot be written with 73, and options that do not go with --garmin with 64.
@Suite(.tags(.endToEnd)) struct GarminMountTests {
  /// Runs `body` with a temporary folder and a database in it holding a saved half plan from Mon 23 Nov 2026.
  private func withSavedPlan(_ body: (URL, URL) throws -> Void) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    try body(directory, db)
  }

  /// A folder laid out as a Garmin watch mounts over USB: GARMIN/GarminDevice.xml (NewFiles not there yet).
  private func fakeWatch(in directory: URL, deviceFile: Bool = true) throws -> URL {
    let mount = directory.appendingPathComponent("GARMIN-WATCH")
    let garmin = mount.appendingPathComponent("GARMIN")
    try FileManager.default.createDirectory(at: garmin, withIntermediateDirectories: true)
    if deviceFile {
      try Data("<?xml version=\"1.0\"?><Device xmlns=\"http://www.garmin.com/xmlschemas/GarminDevice/v2\"/>".utf8)
        .write(to: garmin.appendingPathComponent("GarminDevice.xml"))
    }
    return mount
  }

  @Test(.timeLimit(.minutes(1))) func theNextDaysGoIntoNewFiles() throws {
    try withSavedPlan { directory, db in
      let mount = try fakeWatch(in: directory)
      let copied = try runRunmate(["workouts", "--garmin", mount.path, "--now", "2026-11-25"], database: db)
      #expect(copied.status == 0, "\(copied.stderr)")
      let newFiles = mount.appendingPathComponent("GARMIN/NewFiles")
      #expect(copied.stdout.contains(newFiles.path), "\(copied.stdout)")
      let names = try FileManager.default.contentsOfDirectory(atPath: newFiles.path).sorted()
      // Wed 25 Nov to Tue 1 Dec: the seven days from today, nothing before or after.
      let days = Set(names.map { String($0.prefix(10)) })
      #expect(!names.isEmpty && days.allSatisfy { "2026-11-25" <= $0 && $0 <= "2026-12-01" }, "\(names)")
      #expect(days.contains("2026-12-01") || days.contains("2026-11-29"), "\(names)")
      for name in names {
        #expect(name.hasSuffix(".fit"))
        _ = try FITWorkoutFile.decode(Array(try Data(contentsOf: newFiles.appendingPathComponent(name))), file: name)
      }
      let short = try fakeWatch(in: directory.appendingPathComponent("second"))
      let one = try runRunmate(
        ["workouts", "--garmin", short.path, "--days", "2", "--now", "2026-11-25"], database: db)
      #expect(one.status == 0, "\(one.stderr)")
      let two = try FileManager.default.contentsOfDirectory(
        atPath: short.appendingPathComponent("GARMIN/NewFiles").path)
      #expect(two.allSatisfy { $0.hasPrefix("2026-11-25") || $0.hasPrefix("2026-11-26") } && !two.isEmpty, "\(two)")
    }
  }

  @Test(.timeLimit(.minutes(1))) func aFolderThatIsNotAWatchIsRefused() throws {
    try withSavedPlan { directory, db in
      let plain = directory.appendingPathComponent("usb-stick")
      try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
      let noDevice = try fakeWatch(in: directory.appendingPathComponent("nodevice"), deviceFile: false)
      // A NewFiles that is a link out of the mount, and a GARMIN that is a link to another watch (issue 44).
      let outside = directory.appendingPathComponent("outside")
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
      let linkedNewFiles = try fakeWatch(in: directory.appendingPathComponent("linked-newfiles"))
      try FileManager.default.createSymbolicLink(
        at: linkedNewFiles.appendingPathComponent("GARMIN/NewFiles"), withDestinationURL: outside)
      let real = try fakeWatch(in: directory.appendingPathComponent("real"))
      let linkedGarmin = directory.appendingPathComponent("linked-garmin")
      try FileManager.default.createDirectory(at: linkedGarmin, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        at: linkedGarmin.appendingPathComponent("GARMIN"), withDestinationURL: real.appendingPathComponent("GARMIN"))
      let file = directory.appendingPathComponent("watch.img")
      try Data("x".utf8).write(to: file)
      let cases: [(URL, String)] = [
        (directory.appendingPathComponent("absent"), "no such folder"),
        (file, "it is a file, not a folder"),
        (plain, "it has no GARMIN folder"),
        (noDevice, "it has no GARMIN/GarminDevice.xml"),
        (linkedNewFiles, "NewFiles is a symbolic link (a watch has none)"),
        (linkedGarmin, "GARMIN is a symbolic link (a watch has none)"),
      ]
      for (mount, reason) in cases {
        let refused = try runRunmate(["workouts", "--garmin", mount.path, "--now", "2026-11-25"], database: db)
        #expect(refused.status == 66, "\(mount.path): \(refused.stderr)")
        #expect(
          refused.stderr.contains("--garmin \(mount.path): not a Garmin watch mounted over USB: \(reason)"),
          "\(refused.stderr)")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: plain.path).isEmpty, "nothing written")
      #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing out of the mount")
      // NewFiles that is a file: cannot write, 73.
      let blocked = try fakeWatch(in: directory.appendingPathComponent("blocked"))
      try Data("x".utf8).write(to: blocked.appendingPathComponent("GARMIN/NewFiles"))
      let cannot = try runRunmate(["workouts", "--garmin", blocked.path, "--now", "2026-11-25"], database: db)
      #expect(cannot.status == 73, "\(cannot.stderr)")
    }
  }

  @Test(.timeLimit(.minutes(1))) func optionsThatDoNotGoWithGarminAreUsageErrors() throws {
    try withSavedPlan { directory, db in
      let mount = try fakeWatch(in: directory)
      let cases: [([String], String)] = [
        (["--garmin", mount.path, "--days", "0"], "--days: '0' is not valid, allowed is 1 to 60"),
        (["--garmin", mount.path, "--format", "icu"], "--format: 'icu' is not valid, allowed is fit with --garmin"),
        (["--garmin", mount.path, "--from", "2026-11-23"], "give --days N instead"),
        (["--garmin", mount.path, "--out", directory.path], "--out DIR or --garmin MOUNT, not both"),
        (["--out", directory.appendingPathComponent("x").path, "--days", "3"], "--days only with --garmin"),
        ([], "--out is required"),
      ]
      for (arguments, message) in cases {
        let refused = try runRunmate(["workouts"] + arguments + ["--now", "2026-11-25"], database: db)
        #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
        #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
      }
      #expect(!FileManager.default.fileExists(atPath: mount.appendingPathComponent("GARMIN/NewFiles").path))
    }
  }
}
