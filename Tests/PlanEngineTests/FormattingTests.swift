import Foundation
import PlanEngine
import RunningCore
import Testing

/// The display formatters are total: no value a database or a command line can hold makes them trap.
@Suite struct FormattingTests {
  static let hostile: [Double] = [
    .nan, -.nan, .infinity, -.infinity, 1e21, -1e21, 1e308, .greatestFiniteMagnitude,
    -.greatestFiniteMagnitude, 9.3e17, 1e15, .leastNonzeroMagnitude, -0.0,
  ]

  @Test func oneDecimalKeepsItsFormForOrdinaryNumbers() {
    #expect(oneDecimal(12) == "12")
    #expect(oneDecimal(12.54) == "12.5")
    #expect(oneDecimal(-0.3) == "-0.3")
    #expect(oneDecimal(0.04) == "0")
    #expect(oneDecimal(123_456_789.25) == "123456789.3")
  }

  @Test func oneDecimalNamesNonFiniteAndHugeValues() {
    #expect(oneDecimal(.nan) == "nan")
    #expect(oneDecimal(.infinity) == "inf")
    #expect(oneDecimal(-.infinity) == "-inf")
    #expect(oneDecimal(1e21) == "1e+21")
    #expect(oneDecimal(-1e21) == "-1e+21")
    #expect(DistanceUnit.mi.format(1e21) == "6.21371192237334e+20 mi")
  }

  @Test(arguments: hostile)
  func formattersNeverTrap(_ value: Double) {
    #expect(!oneDecimal(value).isEmpty)
    #expect(!DistanceUnit.km.format(value).isEmpty)
    #expect(!formatRaceTime(value).isEmpty)
    #expect(!Pace(secondsPerKilometer: value).formatted().isEmpty)
    #expect(!Pace(secondsPerKilometer: value).formatted(perMile: true).isEmpty)
  }

  @Test func raceTimesAndPacesOutOfRangeShowDashes() {
    #expect(formatRaceTime(.nan) == "--:--")
    #expect(formatRaceTime(1e300) == "--:--")
    #expect(Pace(secondsPerKilometer: .infinity).formatted() == "--:--/km")
    #expect(formatRaceTime(3_599.6) == "1:00:00")
  }
}
