import Foundation
import Health
import RunMateTestSupport
import RunningCore
import Testing

/// Exports generated with `gen_export.py --days 2 --scale 0.05 --malformed KIND` (`Fixtures/hostile/`), and a
/// few hand-written attacks: each is either read correctly, with no entity expanded, or refused with the
/// exact message.
struct HostileFileTests {
  /// The variants that must import, with their top-level record counts as reference_aggregate.py prints
  /// them ("records N"); attr-spaces, which the reference refuses, is clean.xml plus one record.
  static let readable: [(String, Int)] = [
    ("clean", 380), ("ios16-dtd", 380), ("unknown-types", 385), ("bad-date", 385), ("vertical-tab", 381),
    ("no-me", 380), ("attr-spaces", 381),
  ]

  @Test(arguments: readable)
  func variantsThatAreReadGiveTheReferenceTotals(kind: String, records: Int) throws {
    let health = try importFixture("hostile/\(kind).xml")
    // The reference prints the same days for all of these as for clean.xml (see reference-days.csv):
    // the broken DTD is skipped, bad dates, NaN/negative/missing values and reversed intervals are skipped,
    // unknown types and elements are ignored.
    expectSameDays(health.days, try referenceDays("hostile/reference-days.csv"))
    #expect(health.recordCount == records)
  }

  @Test func aVerticalTabInAValueIsKept() throws {
    // vertical-tab.xml adds a BodyMass of 77.1 kg from source "Scale\u{0B}App" on 2021-01-02.
    let health = try importFixture("hostile/vertical-tab.xml")
    let clean = try importFixture("hostile/clean.xml")
    #expect(health.measures.count == clean.measures.count + 1)
    #expect(health.measures.contains { $0.kind == .bodyMassKg && $0.value == 77.1 })
  }

  @Test func billionLaughsIsRefusedWithoutExpansion() throws {
    // grep -n '&lol9;' billion-laughs.xml → line 195 (a StepCount sourceName); the DTD declares lol…lol9.
    #expect(
      try importError("hostile/billion-laughs.xml")?.description
        == "billion-laughs.xml:195: refusing the entity reference &lol9; "
        + "(entities declared in the export's <!DOCTYPE> are never expanded or fetched)")
  }

  @Test func anExternalEntityIsRefusedAndNothingIsRead() throws {
    // grep -n '&xxe;' xxe.xml → line 186; the DTD declares <!ENTITY xxe SYSTEM "file:///etc/passwd">.
    let error = try importError("hostile/xxe.xml")
    #expect(
      error
        == .entityReference(file: "xxe.xml", line: 186, name: "xxe", declaredInDocumentType: true))
    #expect(error?.description.contains("root:") == false)
  }

  @Test func anEntityInTextIsRefusedToo() throws {
    #expect(
      try importError("hostile/entity-in-text.xml")
        == .entityReference(file: "entity-in-text.xml", line: 7, name: "xxe", declaredInDocumentType: true))
  }

  @Test func anUndefinedEntityIsAnError() throws {
    #expect(
      try importError("hostile/undefined-entity.xml")?.description
        == "undefined-entity.xml:3: XML error: undefined entity &nbsp; "
        + "(only &amp; &lt; &gt; &quot; &apos; and character references are allowed)")
  }

  @Test func anExternalDTDIsNeverLoaded() throws {
    // <!DOCTYPE HealthData SYSTEM "file:///etc/passwd"> and one StepCount record of 1234 steps.
    let health = try importFixture("hostile/external-dtd.xml")
    #expect(health.days == [HealthDay(date: day("2021-01-01"), steps: 1234, distanceKm: 0, activeEnergyKcal: 0)])
  }

  @Test func parameterEntitiesInTheSubsetAreNeverProcessed() throws {
    // %remote; (file:///etc/passwd) and a parameter entity declaring another entity: the subset is skipped.
    let health = try importFixture("hostile/parameter-entity.xml")
    #expect(health.days == [HealthDay(date: day("2021-01-01"), steps: 1234, distanceKm: 0, activeEnergyKcal: 0)])
    #expect(health.recordCount == 1)
  }

  @Test func aTruncatedExportNamesItsLastLine() throws {
    // truncated.xml keeps 60 % of the file: 464 newlines, so it ends on line 465, inside a <Record> tag,
    // with <HealthData> open. (reference_aggregate.py: "unclosed token: line 286" of its DTD-stripped
    // text, + 179 DTD lines = 465.)
    #expect(
      try importError("hostile/truncated.xml")?.description
        == "truncated.xml:465: the file ends before </HealthData> closes (truncated?)")
  }
}
