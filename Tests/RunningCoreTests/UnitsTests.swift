import RunningCore
import Testing

/// Distances, paces and durations: parsing as runners type them, one formatter, one display-unit rule, and titles
/// written in one unit shown in the other.
struct UnitsTests {
  @Test func distancesAreReadWithTheirUnitOrTheRunnersUnit() throws {
    let cases: [(text: String, bare: DistanceUnit, km: Double)] = [
      ("20mi", .km, 32.18688), ("32km", .mi, 32), ("3.1 mi", .km, 4.9889664), ("8.2 KM", .km, 8.2),
      ("5k", .mi, 5), ("800m", .km, 0.8), ("20", .km, 20), ("3", .mi, 4.828032), (" 13.1mi ", .km, 21.0824064),
    ]
    for (text, bare, km) in cases {
      let written = try #require(WrittenDistance(text), "\(text)")
      #expect(abs(written.distance(bare: bare).kilometers - km) < 1e-9, "\(text) in \(bare)")
    }
    #expect(WrittenDistance("20mi")?.hasUnit == true)
    #expect(WrittenDistance("20")?.hasUnit == false)
  }

  @Test func whatIsNotADistanceIsRefusedWithASuggestionWhereOneIsClear() {
    for text in ["20 miles", "mi", "", "0", "-3mi", "nan", "inf", "1e309", "3..1mi", "3.1.2km", "20 furlongs", "km5"] {
      #expect(WrittenDistance(text) == nil, "\(text)")
    }
    #expect(WrittenDistance.suggestion(for: "20 miles") == "20mi")
    #expect(WrittenDistance.suggestion(for: "32 kms") == "32km")
    #expect(WrittenDistance.suggestion(for: "32 kilometres") == "32km")
    #expect(WrittenDistance.suggestion(for: "20 furlongs") == nil)
    #expect(WrittenDistance.suggestion(for: "miles") == nil)
  }

  @Test func oneFormatterRoundsOnceFromKilometres() {
    // 7.85 km is 4.878 mi: 4.9 mi everywhere (never 4.8 from a distance rounded in km first).
    #expect(DistanceUnit.mi.format(7.85) == "4.9 mi")
    #expect(DistanceUnit.mi.number(7.85) == "4.9")
    #expect(DistanceUnit.km.format(Distance(3, .mi)) == "4.8 km")
    #expect(DistanceUnit.mi.format(Distance(kilometers: 42.195)) == "26.2 mi")
    #expect(abs(Distance(kilometers: 1.609344).miles - 1) < 1e-12)
    #expect(DistanceUnit.mi.pace(secondsPerKilometer: 330) == "8:51/mi")
    #expect(DistanceUnit.km.pace(secondsPerKilometer: 329.6) == "5:30/km")
    #expect(
      Pace(secondsPerKilometer: 300).formatted(in: .mi) == Pace(secondsPerKilometer: 300).formatted(perMile: true))
    #expect(RunDuration(seconds: 3599.6).formatted == "1:00:00")
    #expect(RunDuration(seconds: 1980).formatted == "33:00")
    #expect(RunDuration(seconds: .nan).formatted == "--:--")
  }

  @Test func theDisplayUnitIsTheChoiceThenTheProfileThenThePlan() {
    #expect(DistanceUnit.display(chosen: .km, profile: .mi, plan: .mi) == .km)
    #expect(DistanceUnit.display(chosen: nil, profile: .mi, plan: .km) == .mi)
    #expect(DistanceUnit.display(chosen: nil, profile: nil, plan: .mi) == .mi)
    #expect(DistanceUnit.display(chosen: nil, profile: nil) == .km)
  }

  @Test func textInOneUnitIsShownInTheOther() {
    let mi = DistanceUnit.mi
    #expect(mi.relabel("Easy 7 km") == "Easy 4.3 mi")
    // The workout's own distance, when the title rounds it, is converted from the exact value.
    #expect(mi.relabel("Easy 7 km", exact: [7.04]) == "Easy 4.4 mi")
    #expect(mi.relabel("Long run 2:30 (about 20–24.7 km)") == "Long run 2:30 (about 12.4–15.3 mi)")
    #expect(
      mi.relabel("5 × 400 m at 5:40-6:10/km; 2 km easy cool-down") == "5 × 400 m at 9:07-9:55/mi; 1.2 mi easy cool-down"
    )
    #expect(mi.relabel("Race: 10K 10 km. 5 km in 23:20") == "Race: 10K 6.2 mi. 3.1 mi in 23:20")
    #expect(mi.relabel("Volume 30 km: +3 km over week 1 (27 km)") == "Volume 18.6 mi: +1.9 mi over week 1 (16.8 mi)")
    #expect(DistanceUnit.km.relabel("Easy 4.3 mi at 9:07/mi", exact: [7]) == "Easy 7 km at 5:40/km")
    // Repetitions keep their track distance, in metres.
    #expect(mi.relabel("Intervals 9.5 km: 3 × 1.2 km at 4:30/km") == "Intervals 5.9 mi: 3 × 1200 m at 7:15/mi")
    // Text already in the unit, words that merely contain the letters, and metres stay as they are.
    for text in ["Easy 4.3 mi", "10 kms", "a 3 kmh breeze", "Tempo 3 × 1600 m", "3 km2", "pace 5:40/kmh"] {
      #expect(mi.relabel(text) == text, "\(text)")
    }
    #expect(mi.relabel("10 kms") == "10 kms")
    #expect(mi.relabel("Tempo 3 × 1600 m") == "Tempo 3 × 1600 m")
    #expect(DistanceUnit.km.relabel("Easy 7 km") == "Easy 7 km")
  }
}
