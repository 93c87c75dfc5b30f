import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `--format json` output: Training's one JSON form (``JSONText``), a value out of range named after the option.
enum JSONOutput {
  static func encode(_ value: some Encodable) throws -> String {
    do {
      return try JSONText.encode(value)
    } catch .notEncodable(let field, let value) {
      throw CLIError.notEncodable(field: field, value: value)
    }
  }
}

// The `runmate.log/1` contract: metric whatever the runner's unit, as `runmate.today/1` and `runmate.week/1`
// (Training's view models, with `jsonKm` and `jsonSeconds`).
