import Foundation
import Health
import RunMateTestSupport
import RunningCore
import Testing

/// A scale check, not a timed test: exports of 6 and 60 days (about 6 and 62 MB) written here, with a Watch and an
/// iPhone counting the same steps every day, are read in one streaming pass; the totals are the ones laid out, and
/// the peak memory of `runmate health import` (measured in the child, not in this test process) does not grow with the
/// file.
struct ScaleTests {
  static let days = 60

  /// The records of a `days`-day export.
  static func recordCount(days: Int) -> Int { days * (960 * 3 + 480 + 96 + 6) }

  /// Writes a `days`-day export in batches and returns its URL and size.
  ///
  /// Every day from 2021-06-01 (summer time, +0200 throughout): from 06:00 to 22:00 the Watch writes one
  /// record a minute of 10 steps, 0.008 km and 0.5 kcal, and a heart rate every other minute (with a
  /// MetadataEntry child); the iPhone writes 10 minutes of 100 steps from 06:00 to 23:00. The Watch outranks
  /// the iPhone, so each day is 960 × 10 = 9600 steps, plus the iPhone's six uncovered samples from 22:00
  /// to 23:00 (600): 10,200 steps, 960 × 0.008 = 7.68 km, 960 × 0.5 = 480 kcal.
  static func writeExport(named name: String, days: Int, in directory: URL) throws -> (URL, Int) {
    let url = directory.appendingPathComponent(name)
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

  @Test func daysAreReadInOneStreamingPass() throws {
    let directory = try temporaryDirectory("health-scale")
    defer { try? FileManager.default.removeItem(at: directory) }
    let days = Self.days / 10
    let (url, size) = try Self.writeExport(named: "export.xml", days: days, in: directory)
    let health = try importHealth(at: url, timeZone: zone("Europe/Berlin"))
    #expect(health.days.count == days)
    #expect(health.days.first?.date == day("2021-06-01"))
    #expect(health.days.last?.date == day("2021-06-06"))
    for day in health.days {
      #expect(abs(day.steps - 10_200) < 1e-6, "\(day.date)")
      #expect(abs(day.distanceKm - 7.68) < 1e-9, "\(day.date)")
      #expect(abs(day.activeEnergyKcal - 480) < 1e-9, "\(day.date)")
    }
    #expect(health.recordCount == Self.recordCount(days: days))
    #expect(health.bytesRead == Int64(size))
  }

  /// `runmate health import` of an export ten times larger peaks at about the same memory: reading it whole would
  /// need the extra 55 MB at least. Each peak is the child's own `ru_maxrss` (ProcessProbe, rusage-probe).
  @Test(.tags(.endToEnd)) func importPeakMemoryDoesNotGrowWithTheFile() throws {
    let directory = try temporaryDirectory("health-scale")
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try runmateBinary()
    var peaks: [Int] = []
    var sizes: [Int] = []
    for (name, days) in [("small.xml", Self.days / 10), ("large.xml", Self.days)] {
      let (url, size) = try Self.writeExport(named: name, days: days, in: directory)
      let environment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "RUNMATE_DB": directory.appendingPathComponent("\(name).sqlite").path,
      ]
      let result = try ProcessProbe.run(
        binary, ["health", "import", url.path, "--tz", "Europe/Berlin"],
        environment: environment, limits: .init(seconds: 120, memoryMiB: 1024))
      #expect(result.end == .exited(0), "\(name): \(result.end): \(result.stderrText)")
      #expect(
        result.stdoutText.contains(": \(Self.recordCount(days: days)) records, \(days) new days, 0 updated"),
        "\(result.stdoutText)")
      peaks.append(result.peakRSSKiB * 1024)
      sizes.append(size)
      print(
        "HealthTests scale check: runmate health import \(name), \(size / 1_000_000) MB, \(days) days,",
        "\(result.wallSeconds) s, peak \(result.peakRSSKiB / 1024) MiB")
    }
    #expect(sizes[1] > 40_000_000)
    // The larger export adds over 50 MB; the peak may grow by a small fraction of that (buffers, allocator noise).
    let growth = peaks[1] - peaks[0]
    #expect(
      growth < (sizes[1] - sizes[0]) / 4,
      "peak grew by \(growth / 1_048_576) MiB for \(sizes[1] - sizes[0]) more bytes")
  }
}
