import Activity
import Foundation
import RunMateTestSupport
import Testing

/// A scale check, not a timed test: a generated GPX of 200,000 points (about 37 MB) is read in one
/// streaming pass and its distance is the one the generator laid out.
struct ScaleTests {
  static let pointCount = 200_000
  /// Latitude step, in units of 1e-7 degree: 300 → 0.00003° ≈ 3.34 m per second.
  static let step = 300

  /// Writes the file in batches (so the test itself stays small in memory) and returns its URL and size.
  static func writeLargeGPX(in directory: URL) throws -> (URL, Int) {
    let url = directory.appendingPathComponent("large.gpx")
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
      // Along 13.4°E from 10°N, one point a second from 2024-05-01T06:00:00Z.
      let latitude = 100_000_000 + index * step
      let latitudeText = "\(latitude / 10_000_000).\(String(latitude % 10_000_000).leftPadded(to: 7))"
      let clock = 6 * 3600 + index
      let time =
        "2024-05-\(two(1 + clock / 86_400))T\(two(clock / 3600 % 24)):\(two(clock / 60 % 60)):\(two(clock % 60))Z"
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

  @Test func aLargeFileIsReadInOneStreamingPass() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("activity-scale-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (url, size) = try Self.writeLargeGPX(in: directory)
    #expect(size > 30_000_000)

    let peakBefore = peakResidentBytes()
    let clock = ContinuousClock()
    var summary: ActivitySummary?
    let elapsed = try clock.measure { summary = try readActivities(at: url).first }
    let run = try #require(summary)
    let peakGrowth = peakResidentBytes().flatMap { after in peakBefore.map { after - $0 } }

    // Every point is on one meridian, so the distance is R·Δφ for the whole span:
    // (200,000 − 1) steps of 0.00003°.
    let expectedDistance = metersAlongMeridian(Double((Self.pointCount - 1) * Self.step) / 10_000_000)
    #expect(isClose(run.distanceMeters, expectedDistance, relative: 1e-9))
    #expect(run.pointCount == Self.pointCount)
    #expect(run.elapsedSeconds == Double(Self.pointCount - 1))
    #expect(run.movingSeconds == Double(Self.pointCount - 1))
    #expect(run.averageHeartRate == 150)
    #expect(run.elevationGainMeters == 0)
    // Memory must not grow with the file: a DOM or `XMLParser(data:)` would need at least the file's size.
    if let peakGrowth { #expect(peakGrowth < size / 2, "peak resident memory grew by \(peakGrowth) bytes") }

    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let throughput = Int(Double(size) / 1e6 / seconds)
    let mebibytes = { (bytes: Int?) in bytes.map { "\($0 / 1_048_576) MiB" } ?? "unknown" }
    print(
      "ActivityTests scale check: \(size / 1_000_000) MB, \(Self.pointCount) points, \(seconds) s, \(throughput) MB/s;",
      "peak memory before \(mebibytes(peakBefore)), growth \(mebibytes(peakGrowth))")
  }

  /// The process's peak resident set size (`VmHWM` in `/proc/self/status`), where there is one.
  func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
    return kilobytes.map { $0 * 1024 }
  }
}

extension String {
  /// The string with leading zeros up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
