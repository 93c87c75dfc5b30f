import Foundation
import RunningCore
import Testing

@testable import PlanEngine

// Expected values come from the published Daniels VDOT tables (VDOT ≈ 50 for a
// 20:00 5k) and from hand computations of the guide's formulas, never from this
// code's own output.

@Suite("VDOT formulas")
struct VDOTFormulaTests {
  @Test func oxygenCostMatchesHandComputation() {
    // −4.60 + 0.182258·200 + 0.000104·200² = −4.60 + 36.4516 + 4.16
    #expect(abs(VDOT.oxygenCost(metersPerMinute: 200) - 36.0116) < 1e-9)
    // v = 1000: −4.60 + 182.258 + 104
    #expect(abs(VDOT.oxygenCost(metersPerMinute: 1_000) - 281.658) < 1e-9)
  }

  @Test func sustainableFractionMatchesHandComputation() {
    // At t = 0 both exponentials are 1: 0.8 + 0.1894393 + 0.2989558.
    #expect(abs(VDOT.sustainableFraction(minutes: 0) - 1.2883951) < 1e-9)
    // At t = 5: 0.8 + 0.1894393·e^−0.06389 + 0.2989558·e^−0.9663025 ≈ 1.0914634
    #expect(abs(VDOT.sustainableFraction(minutes: 5) - 1.0914634) < 1e-6)
    // Long efforts tend to 0.8.
    #expect(abs(VDOT.sustainableFraction(minutes: 10_000) - 0.8) < 1e-9)
  }

  @Test func velocityInvertsOxygenCost() {
    #expect(abs(VDOT.velocity(vo2: 36.0116) - 200) < 1e-6)
    for v in stride(from: 100.0, through: 450.0, by: 25.0) {
      #expect(abs(VDOT.velocity(vo2: VDOT.oxygenCost(metersPerMinute: v)) - v) < 1e-6)
    }
  }
}

@Suite("VDOT from races and predictions")
struct VDOTRaceTests {
  @Test func twentyMinuteFiveKGoldenValues() throws {
    let vdot = try VDOT(distanceMeters: 5_000, timeSeconds: 20 * 60)
    #expect((49.7...49.9).contains(vdot.value))
    // Published VDOT-50 paces: M 4:32/km, T 4:16/km, I 3:56/km, R 87 s per 400 m.
    #expect(abs(vdot.marathon.secondsPerKilometer - 272) <= 2)
    #expect(abs(vdot.threshold.secondsPerKilometer - 256) <= 2)
    #expect(abs(vdot.interval.secondsPerKilometer - 236) <= 2)
    #expect(abs(vdot.repetition.secondsPerKilometer * 0.4 - 87) <= 2)
    #expect(vdot.threshold.formatted() == "4:16/km")
    #expect(vdot.interval.formatted() == "3:56/km")
  }

  /// (distance m, time s): 5k 20:00, 10k 45:00, half 1:45:00, marathon 3:30:00.
  static let roundTripRaces: [(Double, Double)] = [
    (5_000, 1_200),
    (10_000, 2_700),
    (21_097.5, 6_300),
    (42_195, 12_600),
  ]

  @Test(arguments: roundTripRaces)
  func predictionRoundTrips(distance: Double, time: Double) throws {
    let vdot = try VDOT(distanceMeters: distance, timeSeconds: time)
    #expect(abs(vdot.predictedTime(distanceMeters: distance) - time) <= 1)
    let pace = vdot.racePace(distanceMeters: distance)
    #expect(abs(pace.secondsPerKilometer - time / (distance / 1_000)) <= 0.1)
  }

  @Test func fortyMinuteTenKEquivalence() throws {
    // Published: a 40:00 10k ≈ VDOT 51.9 and a 19:17 5k. Checked by hand in
    // python with the guide's formulas first: VDOT 51.94, 5k 1157.6 s.
    let vdot = try VDOT(distanceMeters: 10_000, timeSeconds: 40 * 60)
    #expect(abs(vdot.value - 51.9) <= 0.3)
    #expect(abs(vdot.predictedTime(distanceMeters: 5_000) - (19 * 60 + 17)) <= 5)
  }

  @Test func higherVDOTPredictsFasterTimes() {
    for distance in [1_609.344, 5_000, 10_000, 42_195] {
      let slower = VDOT(value: 40).predictedTime(distanceMeters: distance)
      let faster = VDOT(value: 60).predictedTime(distanceMeters: distance)
      #expect(faster < slower)
    }
  }

  @Test func predictionOfNonPositiveDistanceIsZero() {
    #expect(VDOT(value: 50).predictedTime(distanceMeters: 0) == 0)
  }
}

@Suite("Training zones")
struct VDOTZoneTests {
  @Test func zonesAreOrderedFastestToSlowest() {
    for value in stride(from: 30.0, through: 85.0, by: 5.0) {
      let vdot = VDOT(value: value)
      #expect(vdot.repetition < vdot.interval)
      #expect(vdot.interval < vdot.threshold)
      #expect(vdot.threshold < vdot.marathon)
      #expect(vdot.marathon < vdot.easy.lowerBound)
      #expect(vdot.easy.lowerBound < vdot.easy.upperBound)
    }
  }

  @Test func higherVDOTGivesFasterPacesInEveryZone() {
    for value in stride(from: 30.0, through: 80.0, by: 5.0) {
      let lower = VDOT(value: value)
      let higher = VDOT(value: value + 5)
      for zone in PaceZone.allCases {
        #expect(higher.pace(for: zone) < lower.pace(for: zone), "zone \(zone.rawValue) at \(value)")
      }
      #expect(higher.easy.lowerBound < lower.easy.lowerBound)
      #expect(higher.easy.upperBound < lower.easy.upperBound)
    }
  }

  @Test func easyRangeEndsAtTheGuideFractions() {
    let vdot = VDOT(value: 50)
    // Fast end at 0.74·50 = 37 ml, slow end at 0.59·50 = 29.5 ml.
    #expect(abs(vdot.easy.lowerBound.metersPerMinute - VDOT.velocity(vo2: 37)) < 1e-9)
    #expect(abs(vdot.easy.upperBound.metersPerMinute - VDOT.velocity(vo2: 29.5)) < 1e-9)
  }

  @Test func paceForZoneMatchesProperties() {
    let vdot = VDOT(value: 50)
    #expect(vdot.pace(for: .marathon) == vdot.marathon)
    #expect(vdot.pace(for: .threshold) == vdot.threshold)
    #expect(vdot.pace(for: .interval) == vdot.interval)
    #expect(vdot.pace(for: .repetition) == vdot.repetition)
    let easy = vdot.pace(for: .easy)
    let middle = (vdot.easy.lowerBound.metersPerMinute + vdot.easy.upperBound.metersPerMinute) / 2
    #expect(abs(easy.metersPerMinute - middle) < 1e-9)
    #expect(vdot.easy.contains(easy))
  }

  @Test func paceAtFractionUsesTheInverseFormula() {
    // 0.88·50 = 44 ml; v(44) by the quadratic formula.
    let expected = (-0.182258 + (0.182258 * 0.182258 + 4 * 0.000104 * 48.6).squareRoot()) / (2 * 0.000104)
    #expect(abs(VDOT(value: 50).pace(atFraction: 0.88).metersPerMinute - expected) < 1e-9)
  }

  @Test func zoneRawValues() {
    #expect(PaceZone.allCases.map(\.rawValue) == ["E", "M", "T", "I", "R"])
  }
}

@Suite("VDOT errors")
struct VDOTErrorTests {
  @Test func fiveMinuteFiveKIsOutOfRange() {
    #expect {
      _ = try VDOT(distanceMeters: 5_000, timeSeconds: 300)
    } throws: { error in
      guard case .outOfRange(let vdot, let distance, let time) = error as? VDOTError else { return false }
      // By hand: v = 1000 m/min → VO2 281.658; %max(5) ≈ 1.0914634 → VDOT ≈ 258.06.
      return abs(vdot - 258.06) < 0.05 && distance == 5_000 && time == 300
    }
  }

  @Test func outOfRangeDescriptionIsARunnerSentence() {
    let error = VDOTError.outOfRange(vdot: 258.0553, distanceMeters: 5_000, timeSeconds: 300)
    #expect(
      error.description
        == "a 5.0 km race in 5:00 gives VDOT 258.1, outside the plausible range 20–90: check the time (h:mm:ss or mm:ss)"
    )
  }

  @Test func walkingPaceIsOutOfRange() {
    // A 5k in 2 hours: v ≈ 41.7 m/min, VO2 ≈ 3.18 → VDOT ≈ 3.8.
    #expect(throws: VDOTError.self) { try VDOT(distanceMeters: 5_000, timeSeconds: 7_200) }
  }

  @Test func nonPositiveInputsThrowNotPositive() {
    #expect(throws: VDOTError.notPositive(distanceMeters: 0, timeSeconds: 1_200)) {
      try VDOT(distanceMeters: 0, timeSeconds: 1_200)
    }
    #expect(throws: VDOTError.notPositive(distanceMeters: 5_000, timeSeconds: -1)) {
      try VDOT(distanceMeters: 5_000, timeSeconds: -1)
    }
  }

  @Test func typedThrowIsVDOTError() {
    do throws(VDOTError) {
      _ = try VDOT(distanceMeters: 5_000, timeSeconds: 0)
      Issue.record("expected a throw")
    } catch {
      #expect(error == .notPositive(distanceMeters: 5_000, timeSeconds: 0))
      #expect(error.description.contains("positive"))
    }
  }
}

@Suite("Pace")
struct PaceTests {
  @Test func conversions() {
    let pace = Pace(metersPerMinute: 250)
    #expect(abs(pace.secondsPerKilometer - 240) < 1e-9)
    #expect(abs(Pace(secondsPerKilometer: 300).metersPerMinute - 200) < 1e-9)
    #expect(abs(Pace(secondsPerKilometer: 300).secondsPerMile - 482.8032) < 1e-9)
    #expect(abs(Pace(secondsPerKilometer: 300).minutes(forKilometers: 10) - 50) < 1e-9)
    #expect(abs(Pace(secondsPerKilometer: 300).kilometers(inMinutes: 50) - 10) < 1e-9)
  }

  @Test func formattingRoundsAndCarries() {
    #expect(Pace(secondsPerKilometer: 299.6).formatted() == "5:00/km")
    #expect(Pace(secondsPerKilometer: 299.4).formatted() == "4:59/km")
    #expect(Pace(secondsPerKilometer: 256).formatted() == "4:16/km")
    #expect(Pace(secondsPerKilometer: 245).formatted() == "4:05/km")
    // 256 s/km × 1.609344 = 411.99 s/mi.
    #expect(Pace(secondsPerKilometer: 256).formatted(perMile: true) == "6:52/mi")
  }

  @Test func rangeFormatting() {
    let range = Pace(secondsPerKilometer: 340)...Pace(secondsPerKilometer: 370)
    #expect(formatPaceRange(range) == "5:40-6:10/km")
    // 340 × 1.609344 = 547.18 → 9:07; 370 × 1.609344 = 595.46 → 9:55.
    #expect(formatPaceRange(range, perMile: true) == "9:07-9:55/mi")
  }

  @Test func comparisonIsBySecondsPerKilometer() {
    #expect(Pace(secondsPerKilometer: 240) < Pace(secondsPerKilometer: 300))
    #expect(!(Pace(secondsPerKilometer: 300) < Pace(secondsPerKilometer: 240)))
  }

  @Test func codableRoundTrip() throws {
    let pace = Pace(secondsPerKilometer: 256.5)
    let data = try JSONEncoder().encode(pace)
    #expect(try JSONDecoder().decode(Pace.self, from: data) == pace)
  }
}

@Suite("Race time text")
struct RaceTimeTextTests {
  @Test func parsesValidTimes() {
    #expect(parseRaceTime("20:00") == 1_200)
    #expect(parseRaceTime("1:35:20") == 5_720)
    #expect(parseRaceTime("47:30.5") == 2_850.5)
    #expect(parseRaceTime("3:30:00") == 12_600)
    #expect(parseRaceTime("0:59") == 59)
  }

  @Test(arguments: [
    "", "abc", "20:75", "-5:00", "1:2:3:4", "20", "20:", ":30", "1:60:00", "20:5", "20:0a", "20:00.", "1:30.5:00",
  ])
  func rejectsInvalidTimes(text: String) {
    #expect(parseRaceTime(text) == nil)
  }

  @Test func formatsTimes() {
    #expect(formatRaceTime(1_200) == "20:00")
    #expect(formatRaceTime(5_720) == "1:35:20")
    #expect(formatRaceTime(65) == "1:05")
    #expect(formatRaceTime(3_599.4) == "59:59")
    #expect(formatRaceTime(3_599.6) == "1:00:00")
    #expect(formatRaceTime(12_600) == "3:30:00")
    #expect(formatRaceTime(.infinity) == "--:--")
  }

  @Test func parseAndFormatRoundTrip() {
    for text in ["20:00", "1:35:20", "45:07", "3:05:09"] {
      #expect(parseRaceTime(text).map(formatRaceTime) == text)
    }
  }
}
