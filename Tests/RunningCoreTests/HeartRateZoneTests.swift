import RunningCore
import Testing

/// Heart-rate zones (issue 25): Karvonen's reserve bands and Friel's %LTHR bands, contiguous in whole beats, and the
/// default model chosen from the rates the runner gave.
struct HeartRateZoneTests {
  private func bands(_ zones: HeartRateZones) -> [[Int]] { zones.zones.map { [$0.low, $0.high] } }

  @Test func karvonenSplitsTheReserveInTenths() throws {
    // Max 188, resting 52: a reserve of 136 beats; Z2 is 60-70 % of it above rest, 133.6 to 147.2 bpm.
    let zones = try #require(HeartRateZones(resting: 52, maximum: 188, threshold: nil))
    #expect(zones.model == .karvonen)
    #expect(bands(zones) == [[120, 133], [134, 146], [147, 160], [161, 173], [174, 188]])
    #expect(zones.zone(2).text == "Z2 134-146 bpm")
  }

  @Test func frielsBandsAreSharesOfTheThreshold() throws {
    // LTHR 170 alone: the default is %LTHR; Z4 95-100 %, Z5 100-106 % (Friel's 5a and 5b).
    let zones = try #require(HeartRateZones(resting: nil, maximum: nil, threshold: 170))
    #expect(zones.model == .lthr)
    #expect(bands(zones) == [[111, 144], [145, 152], [153, 161], [162, 169], [170, 180]])
    // With a max under 106 % of LTHR, Z5 ends at the max.
    let capped = try #require(HeartRateZones(model: .lthr, resting: 50, maximum: 176, threshold: 170))
    #expect(capped.zone(5).high == 176)
  }

  @Test func aModelWithoutItsRatesHasNoZonesAndSaysWhatIsMissing() {
    #expect(HeartRateZones(model: .lthr, resting: 52, maximum: 188, threshold: nil) == nil)
    #expect(HeartRateZones(resting: 52, maximum: nil, threshold: nil) == nil)
    #expect(HeartRateZones.missing(model: .lthr, resting: 52, maximum: 188, threshold: nil) == "lactate-threshold HR")
    #expect(HeartRateZones.missing(model: .karvonen, resting: nil, maximum: 188, threshold: 170) == "resting HR")
    #expect(
      HeartRateZones.missing(model: nil, resting: nil, maximum: 188, threshold: nil)
        == "max HR and resting HR, or lactate-threshold HR")
    #expect(HeartRateZones.missing(model: nil, resting: nil, maximum: nil, threshold: 165) == nil)
  }
}
