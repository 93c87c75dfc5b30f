import Foundation
import RunningCore

/// The one JSON form of every document runmate writes: sorted keys, two-space indentation, no escaped slashes, a
/// final newline (the `runmate.plan/1`, `runmate.schedule/1` and `runmate.plan-share/1` contracts).
public enum JSONText {
  /// `value` as a JSON document; a value JSON cannot hold (NaN, infinity) is named by its path.
  public static func encode(_ value: some Encodable) throws(JSONTextError) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      let data = try encoder.encode(value)
      return String(decoding: data, as: UTF8.self) + "\n"
    } catch let EncodingError.invalidValue(value, context) {
      // JSON has no NaN or infinity: a value stored out of range (by hand, or by an older version) is named.
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      throw .notEncodable(field: path.hasPrefix(".") ? String(path.dropFirst()) : path, value: "\(value)")
    } catch {
      throw .notEncodable(field: "the document", value: "\(error)")
    }
  }
}

/// A value JSON cannot hold.
public enum JSONTextError: RunnerFacingError, Equatable {
  /// The field (`weeks[2].planned_km`) and its value (`nan`).
  case notEncodable(field: String, value: String)

  /// One line naming the field and the value.
  public var description: String {
    switch self {
    case .notEncodable(let field, let value):
      "\(field) is \(value), allowed is a finite number; the database holds a value out of range"
    }
  }

  /// A stored value out of range.
  public var kind: FailureKind { .badData }
}
