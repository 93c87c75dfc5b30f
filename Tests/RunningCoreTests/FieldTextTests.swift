import RunningCore
import Testing

/// Text that names fields: each front door words a field its own way, and the words around it are kept.
struct FieldTextTests {
  /// A door that names fields as options.
  static func flag(_ field: InputField) -> String { "--" + field.label.replacing(" ", with: "-") }

  @Test func fieldsAreNamedByTheDoorAndWordsKept() {
    let runs = 4
    let text: FieldText = "give \(field: .days) with \(runs) days or \(field: .runsPerWeek) 3"
    #expect(text.worded(by: Self.flag) == "give --days with 4 days or --runs-a-week 3")
    #expect(text.description == "give days with 4 days or runs a week 3")
  }

  @Test func textsThatReadTheSameAreEqualHoweverWritten() {
    let date = "2027-01-06"
    let interpolated: FieldText = "a date from \(date) to \(date)"
    #expect(interpolated == FieldText("a date from 2027-01-06 to 2027-01-06"))
    let joined: FieldText = "\(field: .units) mi" + " (was " + FieldText("km") + ")"
    #expect(joined == "\(field: .units) mi (was km)")
    #expect(joined != "units mi (was km)")
    #expect(FieldText("") == FieldText(stringInterpolation: .init(literalCapacity: 0, interpolationCount: 0)))
  }

  @Test func anotherTextKeepsItsFields() {
    let source: FieldText = "\(field: .days)"
    let text: FieldText = "days from \(source); give \(field: .days) again"
    #expect(text.worded(by: Self.flag) == "days from --days; give --days again")
  }
}
