import Foundation
import PlanEngine
import RunningCore

/// What `lint` found in a plan file: the plan as read and every finding, in week order. Encodes as the
/// `runmate.lint/1` contract.
public struct LintResult: Sendable, Encodable {
  /// The plan as read (a runmate plan or a calendar-hack YAML plan).
  public let plan: LintPlan
  /// The findings, in week order.
  public let findings: [LintFinding]

  enum CodingKeys: String, CodingKey { case schema, plan, distance, weeks, findings }

  /// Encodes `runmate.lint/1`: the schema, the plan's name, its distance, its week count and the findings.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.lint/1", forKey: .schema)
    try container.encode(plan.name, forKey: .plan)
    try container.encode(plan.distance?.rawValue, forKey: .distance)
    try container.encode(plan.weeks.count, forKey: .weeks)
    try container.encode(findings, forKey: .findings)
  }
}

/// A file `lint` cannot read as a plan (bad data): the file and what is wrong with it.
public struct LintFileProblem: RunnerFacingError, Sendable, Equatable {
  /// The file as given.
  public let path: String
  /// What is wrong, in words.
  public let problem: String

  /// A file that is not a plan is bad data.
  public var kind: FailureKind { .badData }
  /// `PATH: PROBLEM`.
  public var description: String { "\(path): \(problem)" }
}

/// The `lint` use case: the plan in the file at `path` (a runmate plan, or a calendar-hack YAML plan of the race
/// `distance` when the file does not name one) judged with `rules`.
/// - Throws: ``PlanFileError/missing(path:)`` (and other read errors) for a file that cannot be read,
///   ``LintFileProblem`` for one that is not a plan.
public func lintPlanFile(_ path: String, distance: RaceDistance?, rules: PlanRules) throws -> LintResult {
  let data: Data
  do {
    data = try PlanFile.readData(path)
  } catch {
    guard case .untrusted(let path, let problem) = error else { throw error }
    throw LintFileProblem(path: path, problem: problem.description)
  }
  let name = URL(fileURLWithPath: path).lastPathComponent
  let plan: LintPlan
  do {
    plan = try LintPlan(text: String(decoding: data, as: UTF8.self), name: name, distance: distance)
  } catch {
    throw LintFileProblem(path: path, problem: error.description)
  }
  return LintResult(plan: plan, findings: lint(plan, rules: rules))
}
