import Activity
import Foundation
import RunMateTestSupport
import Testing

/// The summaries of a fixture file.
func readFixture(_ path: String) throws -> [ActivitySummary] {
  try readActivities(at: fixtureURL(path))
}

/// The one summary of a fixture file that must hold exactly one.
func readSingle(_ path: String) throws -> ActivitySummary {
  let summaries = try readFixture(path)
  try #require(summaries.count == 1)
  return summaries[0]
}

/// Mean Earth radius used by the reference (`gpx_stats.py`), for distances worked out in the tests.
let earthRadius = 6_371_008.8

/// Metres along a meridian for `degrees` of latitude: the haversine of two points on one meridian is
/// exactly R·Δφ, so expected distances of tracks laid along a meridian need no haversine.
func metersAlongMeridian(_ degrees: Double) -> Double {
  earthRadius * degrees * Double.pi / 180
}
