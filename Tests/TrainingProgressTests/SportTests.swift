import Foundation
import PlanEngine
import RunningCore
import Testing
import TrainingDomain

@Suite struct SportTests {
  static let named: [Sport] = [
    .run, .cycling, .swimming, .walking, .hiking, .skiing, .rowing, .paddling, .skating, .elliptical, .yoga,
    .strengthTraining,
  ]

  @Test func aSportReadsBackFromItsName() {
    for sport in Self.named + [.other("snowboarding")] {
      #expect(Sport(name: sport.name) == sport)
    }
    #expect(Set(Self.named.map(\.name)).count == Self.named.count)
    if case .other = Sport(name: "cycling") { Issue.record("cycling has a case of its own") }
    #expect(Sport(name: "strength training") == .strengthTraining)
  }

  @Test func sportsAreEqualByName() {
    #expect(Sport.other("cycling") == .cycling)
    #expect(Set([Sport.other("cycling"), .cycling]).count == 1)
    #expect(Sport.other("snowboarding") != .skiing)
  }

  @Test func onlyARunIsARunAndEachSportFulfilsItsPlannedKind() {
    #expect(Self.named.filter(\.isRun) == [.run])
    #expect(Sport.run.plannedKind == nil)
    #expect(Sport.strengthTraining.plannedKind == .strength)
    #expect(Sport.yoga.plannedKind == .crossTraining)
    #expect(Sport.other("Strava type 22").plannedKind == .crossTraining)
  }

  @Test func aCompletionEncodesItsSportAsTheName() throws {
    let run = Completion(
      date: CivilDate(iso: "2027-01-04")!, distanceKm: 0, durationSeconds: 1800, sport: .strengthTraining)
    let json = String(decoding: try JSONEncoder().encode(run), as: UTF8.self)
    #expect(json.contains(#""sport":"strength training""#))
    #expect(try JSONDecoder().decode(Completion.self, from: Data(json.utf8)).sport == .strengthTraining)
  }
}
