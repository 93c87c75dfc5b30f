import Foundation
import PlanEngine

/// JSON output: sorted keys, two-space indentation, a final newline (the `runmate.plan/1` and
/// `runmate.schedule/1` contracts).
enum JSONOutput {
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      let data = try encoder.encode(value)
      return String(decoding: data, as: UTF8.self) + "\n"
    } catch let EncodingError.invalidValue(value, context) {
      // JSON has no NaN or infinity: a value stored out of range (by hand, or by an older version) is named.
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      throw CLIError.notEncodable(field: path.hasPrefix(".") ? String(path.dropFirst()) : path, value: "\(value)")
    }
  }
}
