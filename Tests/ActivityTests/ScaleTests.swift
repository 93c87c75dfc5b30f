import Activity
import Foundation
import RunMateTestSupport
import Testing

/// A scale check, not a timed test: generated GPX files of 20,000 and 200,000 points (about 4 and 41 MB) are read in
/// one streaming pass, their distance is the one the generator laid out, and the peak memory of `runmate import`
/// (measured in the child, not in this test process) does not grow with the file.
struct ScaleTests {
  static let pointCount = 200_000
  /// Latitude step, in units of 1e-7 degree: 120 → 0.000012° ≈ 1.33 m per point, a point every 0.4 s (3.34 m/s):
  /// 200,000 points take 22 h 13 min, under the 24 hours an activity may last.
  static let step = 120
  /// Tenths of a second between points.
  static let tenths = 4

  /// Writes a file of `pointCount` points in batches (so the test itself stays small in memory) and returns its URL
  /// and size.
  static func writeGPX(named name: String, pointCount: Int, in directory: URL) throws -> (URL, Int) {
    let url = directory.appendingPathComponent(name)
    try #require(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var size = 0
    func write(_ text: String) throws {
      let data = Data(text.utf8)
      size += data.count
      try handle.write(contentsOf: data)
    }
    try write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="ScaleTests" xmlns="http://www.topografix.com/GPX/1/1" \
      xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
       <trk><name>Due north</name><trkseg>

      """)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var batch = ""
    for index in 0..<pointCount {
      // Along 13.4°E from 10°N, one point every 0.4 s from 2024-05-01T06:00:00Z.
      let latitude = 100_000_000 + index * step
      let latitudeText = "\(latitude / 10_000_000).\(String(latitude % 10_000_000).leftPadded(to: 7))"
      let clockTenths = 6 * 36_000 + index * tenths
      let clock = clockTenths / 10
      let time =
        "2024-05-\(two(1 + clock / 86_400))T\(two(clock / 3600 % 24)):\(two(clock / 60 % 60)):\(two(clock % 60))"
        + ".\(clockTenths % 10)Z"
      batch += "  <trkpt lat=\"\(latitudeText)\" lon=\"13.4000000\"><ele>12.5</ele><time>\(time)</time>"
      batch += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>150</gpxtpx:hr></gpxtpx:TrackPointExtension>"
      batch += "</extensions></trkpt>\n"
      if index % 10_000 == 9_999 {
        try write(batch)
        batch = ""
      }
    }
    try write(batch + " </trkseg></trk>\n</gpx>\n")
    return (url, size)
  }

  /// The distance of a generated file: every point is on one meridian, so it is R·Δφ for the whole span,
  /// (points − 1) steps of 0.000012°.
  static func expectedDistance(_ points: Int) -> Double {
    metersAlongMeridian(Double((points - 1) * step) / 10_000_000)
  }

  @Test func aFileIsReadInOneStreamingPass() throws {
    let directory = try temporaryDirectory("activity-scale")
    defer { try? FileManager.default.removeItem(at: directory) }
    let points = Self.pointCount / 10
    let (url, _) = try Self.writeGPX(named: "small.gpx", pointCount: points, in: directory)
    let run = try #require(try readActivities(at: url).first)
    #expect(isClose(run.distanceMeters, Self.expectedDistance(points), relative: 1e-9))
    #expect(run.pointCount == points)
    #expect(isClose(run.elapsedSeconds, Double((points - 1) * Self.tenths) / 10, absolute: 1e-6))
    #expect(isClose(run.movingSeconds, Double((points - 1) * Self.tenths) / 10, absolute: 1e-6))
    #expect(run.averageHeartRate == 150)
    #expect(run.elevationGainMeters == 0)
  }

  /// `runmate import` of a file ten times larger peaks at about the same memory: a DOM or `XMLParser(data:)` would
  /// need at least the extra 37 MB. Each peak is the child's own `ru_maxrss` (ProcessProbe, rusage-probe).
  @Test(.tags(.endToEnd)) func importPeakMemoryDoesNotGrowWithTheFile() throws {
    let directory = try temporaryDirectory("activity-scale")
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try runmateBinary()
    var peaks: [Int] = []
    var sizes: [Int] = []
    for (name, points) in [("small.gpx", Self.pointCount / 10), ("large.gpx", Self.pointCount)] {
      let (url, size) = try Self.writeGPX(named: name, pointCount: points, in: directory)
      let environment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "RUNMATE_DB": directory.appendingPathComponent("\(name).sqlite").path,
      ]
      let result = try ProcessProbe.run(
        binary, ["import", url.path, "--tz", "UTC"], environment: environment,
        limits: .init(seconds: 120, memoryMiB: 1024))
      #expect(result.end == .exited(0), "\(name): \(result.end): \(result.stderrText)")
      let kilometres = String(format: "%.1f km", Self.expectedDistance(points) / 1000)
      #expect(result.stdoutText.hasPrefix("imported \(name): Wed 1 May, \(kilometres) "), "\(result.stdoutText)")
      peaks.append(result.peakRSSKiB * 1024)
      sizes.append(size)
      print(
        "ActivityTests scale check: runmate import \(name), \(size / 1_000_000) MB, \(points) points,",
        "\(result.wallSeconds) s, peak \(result.peakRSSKiB / 1024) MiB")
    }
    #expect(sizes[1] > 30_000_000)
    // The larger file adds over 33 MB; the peak may grow by a small fraction of that (buffers, allocator noise).
    let growth = peaks[1] - peaks[0]
    #expect(
      growth < (sizes[1] - sizes[0]) / 4,
      "peak grew by \(growth / 1_048_576) MiB for \(sizes[1] - sizes[0]) more bytes")
  }
}

extension String {
  /// The string with leading zeros up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
