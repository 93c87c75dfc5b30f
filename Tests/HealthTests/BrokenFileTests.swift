import Foundation
import Health
import RunMateTestSupport
import Testing

/// Files that are not exports, broken XML and broken zips: each refused with the exact message.
struct BrokenFileTests {
  @Test func aTruncatedWorkoutNamesTheOpenElement() throws {
    // 4 lines, each ending with a newline: the file ends on line 5 with <Workout> open.
    #expect(
      try importError("broken/truncated-in-workout.xml")
        == .truncated(file: "truncated-in-workout.xml", line: 5, openElement: "Workout"))
  }

  @Test func mismatchedTags() throws {
    #expect(
      try importError("broken/mismatched.xml")?.description
        == "mismatched.xml:5: XML error: </Workout> does not match the open element <WorkoutStatistics>")
  }

  @Test func anUnquotedValueOnAContinuationLine() throws {
    #expect(
      try importError("broken/unquoted.xml")?.description
        == "unquoted.xml:4: XML error: attribute 'value' of <Record> has no quotes around its value")
  }

  @Test func aRawAmpersand() throws {
    #expect(
      try importError("broken/raw-ampersand.xml")?.description
        == "raw-ampersand.xml:3: XML error: '&' that does not start an entity or character reference (write &amp;)")
  }

  @Test func aSecondRootElement() throws {
    #expect(
      try importError("broken/after-root.xml")?.description
        == "after-root.xml:4: XML error: element <HealthData> after </HealthData>")
  }

  @Test func filesThatAreNotExports() throws {
    #expect(
      try importError("broken/route.gpx")?.description == "route.gpx: not an Apple Health export (root element <gpx>)")
    #expect(
      try importError("broken/empty.xml")?.description == "empty.xml: not an Apple Health export (the file is empty)")
    #expect(
      try importError("broken/notes.txt")?.description == "notes.txt: not an Apple Health export (not XML, CSV or zip)")
    #expect(
      try importError("broken/missing.zip")
        == .unreadable(file: "missing.zip", reason: "No such file or directory"))
  }

  @Test func aZipWithoutAnExport() throws {
    // export_cda.xml and a GPX route only.
    #expect(
      try importError("broken/no-export.zip")?.description
        == "no-export.zip: no Apple Health export XML in the zip "
        + "(no .xml entry starts with <!DOCTYPE HealthData or <HealthData)")
  }

  @Test func damagedZips() throws {
    // The first half of handwritten/export.zip: no central directory.
    #expect(
      try importError("broken/cut-in-half.zip")?.description
        == "cut-in-half.zip: cannot read the zip (not a zip archive, or damaged: no central directory (truncated?))")
    // Deflated bytes of the export entry flipped near its start, and near its end.
    for name in ["corrupt-data.zip", "corrupt-tail.zip"] {
      #expect(
        try importError("broken/\(name)")?.description
          == "\(name): cannot read the zip (apple_health_export/export.xml: corrupt compressed data)")
    }
  }
}
