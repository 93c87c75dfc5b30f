import Foundation
import RunMateTestSupport
import Testing

@testable import Activity

/// Garmin's decoder's session totals of each leg (written by Fixtures/fit/make_fixtures.py and
/// Fixtures/tcx/make_multisport.py with garmin-fit-sdk).
private struct FITLegs: Decodable {
  struct Session: Decodable {
    var sport: String
    var startTime: Double
    var totalElapsedTime: Double
    var totalDistance: Double
  }
  var records: Int
  var sessions: [Session]
}

private struct TCXLegs: Decodable {
  struct Leg: Decodable {
    var sport: String
    var startTime: Double
    var sessionTotalDistance: Double
    var sessionTotalElapsedTime: Double
  }
  var legs: [Leg]
}

private func reference<Value: Decodable>(_ type: Value.Type, _ path: String) throws -> Value {
  let decoder = JSONDecoder()
  decoder.keyDecodingStrategy = .convertFromSnakeCase
  return try decoder.decode(type, from: Data(contentsOf: fixtureURL(path)))
}

/// Multisport files are read leg by leg, each leg with its own sport, distance and time agreeing with Garmin's own
/// session totals: distance within 0.5 m (FIT: the records' last − first; TCX: the trackpoints' last − first
/// DistanceMeters, every 5th record kept), elapsed time within 3 s (the records' span against the session's
/// `total_elapsed_time`, which also counts the time to the next leg's first record).
struct MultisportTests {
  /// fit/multisport.fit: a generic leg whose session span starts late and reaches into the legs after it, a
  /// transition whose last record lies between two spans, a run and a ride, all records before the sessions.
  @Test func aMultisportFITGivesOneActivityPerLegAsGarminsSessionsSay() throws {
    let expected = try reference(FITLegs.self, "fit/multisport.json")
    let legs = try readFixture("fit/multisport.fit")

    #expect(legs.map(\.sport) == expected.sessions.map(\.sport))
    #expect(legs.map(\.pointCount).reduce(0, +) == expected.records)
    for (leg, session) in zip(legs, expected.sessions) {
      #expect(abs(leg.distanceMeters - session.totalDistance) <= 0.5, "\(session.sport)")
      #expect(abs(leg.elapsedSeconds - session.totalElapsedTime) <= 3, "\(session.sport)")
      #expect(leg.distanceSource == .device)
    }
    // Only the run is a run.
    #expect(legs.map { DeclaredSport($0.sport).isRun } == [false, false, true, false])
  }

  @Test func aRecordBetweenTwoLegsGoesToTheLegBeforeIt() {
    // Spans as in fit/multisport.fit: generic [300, 1502], transition [1202, 1262.8], run [1264, 2464].
    let spans: [ClosedRange<Double>] = [300...1502, 1202...1262.8, 1264...2464]
    #expect(FITActivityBuilder.session(holding: 0, in: spans) == 0)  // before the generic leg's late start
    #expect(FITActivityBuilder.session(holding: 1263, in: spans) == 1)  // held only by the generic span
    #expect(FITActivityBuilder.session(holding: 1264, in: spans) == 2)  // a leg's first record
    #expect(FITActivityBuilder.session(holding: 5000, in: spans) == 2)  // after every span
  }

  /// tcx/multisport.tcx: Garmin Connect's layout (<MultiSportSession>, <FirstSport>, <NextSport> with a
  /// <Transition>), made from fit/multisport.fit; the DistanceMeters run on across the legs.
  @Test func aMultisportTCXIsImportedLegByLeg() throws {
    let expected = try reference(TCXLegs.self, "tcx/multisport.json")
    let legs = try readFixture("tcx/multisport.tcx")

    #expect(legs.map(\.sport) == expected.legs.map(\.sport))
    for (leg, reference) in zip(legs, expected.legs) {
      #expect(leg.start.timeIntervalSince1970 == reference.startTime)
      #expect(abs(leg.distanceMeters - reference.sessionTotalDistance) <= 0.5, "\(reference.sport)")
      #expect(abs(leg.elapsedSeconds - reference.sessionTotalElapsedTime) <= 3, "\(reference.sport)")
      #expect(leg.distanceSource == .device)
    }
    #expect(legs.map { DeclaredSport($0.sport).isRun } == [false, true, false])
  }
}
