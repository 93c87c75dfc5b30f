import Foundation
import Health
import RunMateTestSupport
import Testing

/// A scale check, not a timed test: a 60-day export (about 50 MB) written here, with a Watch and an iPhone
/// counting the same steps every day, is read in one streaming pass; the totals are the ones laid out, and
/// peak memory grows by far less than the file's size.
struct ScaleTests {
  static let days = 60

  /// Writes the export in batches and returns its URL and size.
  ///
  /// Every day from 2021-06-01 (summer time, +0200 throughout): from 06:00 to 22:00 the Watch writes one
  /// record a minute of 10 steps, 0.008 km and 0.5 kcal, and a heart rate every other minute (with a
  /// MetadataEntry child); the iPhone writes 10 minutes of 100 steps from 06:00 to 23:00. The Watch outranks
  /// the iPhone, so each day is 960 × 10 = 9600 steps, plus the iPhone's six uncovered samples from 22:00
  /// to 23:00 (600): 10,200 steps, 960 × 0.008 = 7.68 km, 960 × 0.5 = 480 kcal.
  static func writeExport(in directory: URL) throws -> (URL, Int) {
    let url = directory.appendingPathComponent("export.xml")
    try #require(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var size = 0
    var batch = ""
    func flush() throws {
      let data = Data(batch.utf8)
      size += data.count
      try handle.write(contentsOf: data)
      batch = ""
    }
    batch += """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE HealthData [
      <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
      <!ATTLIST Record
        type          CDATA #REQUIRED
        unit          CDATA #IMPLIED
      >
      ]>
      <HealthData locale="en_DE">
       <ExportDate value="2021-08-01 09:00:00 +0200"/>

      """
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let watch = "sourceName=\"Alex’s Apple Watch\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;\""
    let phone = "sourceName=\"Alex’s iPhone\" device=\"&lt;&lt;HKDevice: 0x2&gt;, name:iPhone&gt;\""
    for day in 0..<days {
      let date = day < 30 ? "2021-06-\(two(day + 1))" : "2021-07-\(two(day - 29))"
      func time(_ minute: Int) -> String { "\(date) \(two(minute / 60)):\(two(minute % 60)):00 +0200" }
      for minute in 360..<1320 {
        let span = "creationDate=\"\(time(minute + 1))\" startDate=\"\(time(minute))\" endDate=\"\(time(minute + 1))\""
        let prefix = " <Record type=\"HKQuantityTypeIdentifier"
        batch += "\(prefix)StepCount\" \(watch) unit=\"count\" \(span) value=\"10\"/>\n"
        batch += "\(prefix)DistanceWalkingRunning\" \(watch) unit=\"km\" \(span) value=\"0.008\"/>\n"
        batch += "\(prefix)ActiveEnergyBurned\" \(watch) unit=\"kcal\" \(span) value=\"0.5\"/>\n"
        if minute % 2 == 0 {
          batch += "\(prefix)HeartRate\" \(watch) unit=\"count/min\" \(span) value=\"\(60 + minute % 40)\">\n"
          batch += "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n </Record>\n"
        }
        if minute % 10 == 0, minute < 1380 {
          let phoneSpan =
            "creationDate=\"\(time(minute + 10))\" startDate=\"\(time(minute))\" endDate=\"\(time(minute + 10))\""
          batch += "\(prefix)StepCount\" \(phone) unit=\"count\" \(phoneSpan) value=\"100\"/>\n"
        }
      }
      for minute in stride(from: 1320, to: 1380, by: 10) {
        let span =
          "creationDate=\"\(time(minute + 10))\" startDate=\"\(time(minute))\" endDate=\"\(time(minute + 10))\""
        batch += " <Record type=\"HKQuantityTypeIdentifierStepCount\" \(phone) unit=\"count\" \(span) value=\"100\"/>\n"
      }
      try flush()
    }
    batch += "</HealthData>\n"
    try flush()
    return (url, size)
  }

  @Test func sixtyDaysAreReadInOneStreamingPass() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-scale-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (url, size) = try Self.writeExport(in: directory)
    #expect(size > 40_000_000)

    let peakBefore = peakResidentBytes()
    let clock = ContinuousClock()
    var result: HealthImport?
    let elapsed = try clock.measure { result = try importHealth(at: url, timeZone: zone("Europe/Berlin")) }
    let health = try #require(result)
    let peakGrowth = peakResidentBytes().flatMap { after in peakBefore.map { after - $0 } }

    #expect(health.days.count == Self.days)
    #expect(health.days.first?.date == "2021-06-01")
    #expect(health.days.last?.date == "2021-07-30")
    for day in health.days {
      #expect(abs(day.steps - 10_200) < 1e-6, "\(day.date)")
      #expect(abs(day.distanceKm - 7.68) < 1e-9, "\(day.date)")
      #expect(abs(day.activeEnergyKcal - 480) < 1e-9, "\(day.date)")
    }
    #expect(health.recordCount == Self.days * (960 * 3 + 480 + 96 + 6))
    #expect(health.bytesRead == Int64(size))
    // Memory must not grow with the file: reading it whole would need its size at least.
    if let peakGrowth { #expect(peakGrowth < size / 2, "peak resident memory grew by \(peakGrowth) bytes") }

    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let mebibytes = { (bytes: Int?) in bytes.map { "\($0 / 1_048_576) MiB" } ?? "unknown" }
    print(
      "HealthTests scale check: \(size / 1_000_000) MB, \(health.recordCount) records, \(seconds) s,",
      "\(Int(Double(size) / 1e6 / seconds)) MB/s; peak memory before \(mebibytes(peakBefore)),",
      "growth \(mebibytes(peakGrowth))")
  }

  /// The process's peak resident set size (`VmHWM` in `/proc/self/status`), where there is one.
  func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
  }
}
