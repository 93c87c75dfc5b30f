import Foundation
import PlanEngine

/// The `runmate.plan/1` JSON contract: sorted keys, two-space indentation, a final newline.
enum PlanJSON {
  static func encode(_ plan: Plan) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(plan)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
