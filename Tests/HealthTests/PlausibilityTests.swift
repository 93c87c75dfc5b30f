import Foundation
import RunMateTestSupport
import Testing

@testable import Health

/// Values no body can produce are refused where they are parsed, naming the line (the CSV row); a day whose
/// total is absurd is refused naming the day.
struct PlausibilityTests {
  /// Writes `text` to a file called `name` in a fresh temporary folder and imports it (Europe/Berlin).
  static func importText(_ text: String, named name: String) throws -> HealthImport {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-plausible-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return try importHealth(at: url, timeZone: zone("Europe/Berlin"))
  }

  static func error(_ text: String, named name: String) -> String? {
    do {
      _ = try importText(text, named: name)
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// An export whose records start on line 3, one per line.
  static func export(_ records: [String]) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + records.joined(separator: "\n")
      + "\n</HealthData>\n"
  }

  static func steps(_ value: String, at time: String = "08:00:00", end: String = "08:10:00") -> String {
    "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" "
      + "startDate=\"2024-03-01 \(time) +0100\" endDate=\"2024-03-01 \(end) +0100\" value=\"\(value)\"/>"
  }

  @Test func aCSVRowOf1e19StepsIsRefused() {
    let csv = "date,steps,distance_km,active_kcal\n2024-03-01,1e19,5,300\n"
    #expect(
      Self.error(csv, named: "steps.csv") == "steps.csv:2: steps '1e19' is out of range (allowed 0 to 200000 steps)")
  }

  @Test(arguments: [
    ("2024-03-01,100,5000,300", "distance_km '5000' is out of range (allowed 0 to 1000 km)"),
    ("2024-03-01,100,5,25000", "active_kcal '25000' is out of range (allowed 0 to 20000 kcal)"),
    ("2024-03-01,nan,5,300", "steps 'nan' is not a non-negative number"),
    ("2024-03-01,inf,5,300", "steps 'inf' is not a non-negative number"),
    ("2024-03-01,1e309,5,300", "steps '1e309' is not a non-negative number"),
    ("1850-03-01,100,5,300", "date '1850-03-01' is out of range (allowed 1900-01-01 to 2200-01-01)"),
    ("9999-03-01,100,5,300", "date '9999-03-01' is out of range (allowed 1900-01-01 to 2200-01-01)"),
  ])
  func csvValuesOutsideTheirRange(_ row: String, _ message: String) {
    let csv = "date,steps,distance_km,active_kcal\n2024-02-29,1,1,1\n\(row)\n"
    #expect(Self.error(csv, named: "days.csv") == "days.csv:3: \(message)")
  }

  @Test func aPlausibleCSVStillImports() throws {
    let csv = "date,steps,distance_km,active_kcal\n2024-03-01,200000,1000,20000\n"
    let health = try Self.importText(csv, named: "ok.csv")
    #expect(health.days.map(\.steps) == [200_000])
  }

  @Test func anExportRecordOf1e19StepsIsRefusedWithItsLine() {
    let text = Self.export([Self.steps("100"), Self.steps("1e19", at: "09:00:00", end: "09:10:00")])
    #expect(
      Self.error(text, named: "export.xml")
        == "export.xml:4: <Record> StepCount value '1e19 count' is out of range (allowed 0 to 200000 steps)")
  }

  @Test func nonFiniteRecordValuesAreSkippedAsTheReferenceDoes() throws {
    let text = Self.export(["NaN", "inf", "1e309", "-5", "7"].map { Self.steps($0) })
    let health = try Self.importText(text, named: "export.xml")
    #expect(health.days.map(\.steps) == [7])
  }

  @Test func aDayWhoseTotalIsAbsurdIsRefused() {
    let text = Self.export([
      Self.steps("150000", at: "08:00:00", end: "09:00:00"), Self.steps("150000", at: "10:00:00", end: "11:00:00"),
    ])
    #expect(
      Self.error(text, named: "export.xml")
        == "export.xml: 2024-03-01: 300000 steps in one day is more than 200000")
  }

  static func measure(_ type: String, _ unit: String, _ value: String) -> String {
    let dates = "startDate=\"2024-03-01 08:00:00 +0100\" endDate=\"2024-03-01 08:00:00 +0100\""
    let kind = "type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"Me\" unit=\"\(unit)\""
    return "<Record \(kind) \(dates) value=\"\(value)\"/>"
  }

  static func run(end: String, distance: String = "") -> String {
    let type = "workoutActivityType=\"HKWorkoutActivityTypeRunning\" sourceName=\"Watch\""
    let dates = "startDate=\"2024-03-01 08:00:00 +0100\" endDate=\"\(end)\""
    return "<Workout \(type) \(distance) \(dates)/>"
  }

  static let exportCases: [(record: String, message: String)] = [
    (measure("BodyMass", "kg", "1000"), "<Record> BodyMass value '1000 kg' is out of range (allowed 20 to 400 kg)"),
    (measure("Height", "ft", "12"), "<Record> Height value '12 ft' is out of range (allowed 50 to 260 cm)"),
    (
      measure("RestingHeartRate", "count/min", "400"),
      "<Record> RestingHeartRate value '400 count/min' is out of range (allowed 20 to 250 bpm)"
    ),
    (
      steps("10").replacingOccurrences(of: "2024-03-01 08:00:00", with: "1850-03-01 08:00:00"),
      "<Record> startDate '1850-03-01 08:00:00 +0100' is out of range (allowed 1900-01-01 to 2200-01-01)"
    ),
    (
      run(end: "2024-03-12 08:00:00 +0100"),
      "<Workout> endDate '2024-03-12 08:00:00 +0100' is out of range (allowed at most 7 days after its startDate)"
    ),
    (
      run(end: "2024-03-01 08:10:00 +0100", distance: "totalDistance=\"42\" totalDistanceUnit=\"km\""),
      "<Workout> distance '42 km in 600 s' is out of range (allowed a run no faster than 1:30 min/km)"
    ),
  ]

  @Test(arguments: exportCases)
  func exportValuesOutsideTheirRange(_ record: String, _ message: String) {
    #expect(Self.error(Self.export([record]), named: "export.xml") == "export.xml:3: \(message)")
  }

  @Test func aWorkoutWithAbsurdStatisticsIsRefusedAtItsEndTag() {
    let workout = """
      <Workout workoutActivityType="HKWorkoutActivityTypeCycling" sourceName="Watch" \
      startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 10:00:00 +0100">
       <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="1e12" unit="kcal"/>
      </Workout>
      """
    #expect(
      Self.error(Self.export([workout]), named: "export.xml")
        == "export.xml:5: <Workout> energy '1000000000000 kcal' is out of range (allowed 0 to 20000 kcal)")
  }

  @Test func aTenDigitCharacterReferenceIsAnErrorNotATrap() {
    let text = Self.export(["<Record type=\"x&#9999999999;\"/>", "<Record type=\"&#xFFFFFFFFF;\"/>"])
    #expect(
      Self.error(text, named: "export.xml")
        == "export.xml:3: XML error: character reference &#9999999999; is not a character XML allows")
  }
}
