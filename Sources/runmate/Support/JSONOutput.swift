import Foundation
import PlanEngine

/// JSON output: sorted keys, two-space indentation, a final newline (the `runmate.plan/1` and
/// `runmate.schedule/1` contracts).
enum JSONOutput {
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
