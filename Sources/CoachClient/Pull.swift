import Foundation
import RunningCore
import Training
import TrainingDomain

/// An answer of `GET /api/v1/me/updates`.
private struct UpdatesAnswer: Decodable {
  struct Comment: Decodable {
    let id: Int64
    let date: String
    let author: String
    let text: String
    let createdAt: Date
  }

  let comments: [Comment]
  let more: Bool
  let planFile: String?
  let cursor: String
}

/// An answer of `PUT /api/v1/me/plan`.
private struct PlanPushAnswer: Decodable {
  let saved: Bool
  let cursor: String
}

/// The request of `PUT /api/v1/me/plan`.
private struct PlanPushBody: Encodable {
  let planFile: String
  let base: String?
}

extension CoachClient {
  /// The most answers one pull reads (200 comments each: 10,000 comments), and the most bytes of them: a server that
  /// keeps saying `more` is refused (``CoachClientError/tooManyUpdates(server:pages:bytes:)``), not followed for ever.
  public static let maxUpdatePages = 50
  /// See ``maxUpdatePages``.
  public static let maxUpdateBytes = 16 << 20

  /// What the server has for the athlete since `cursor` (`GET /api/v1/me/updates`, asked again while it says more
  /// comments follow): the coaches' comments and the plan when it changed, read as a plan file and checked as
  /// `runmate plans import` checks one.
  /// - Throws: ``CoachClientError`` for the server's refusals; ``Training/PlanFileError`` for a plan that cannot be
  ///   trusted.
  /// `maxPages` and `maxBytes` bound it (``maxUpdatePages``, ``maxUpdateBytes``; tests lower them).
  public func updates(
    since cursor: String?, session: CoachSession, maxPages: Int = CoachClient.maxUpdatePages,
    maxBytes: Int = CoachClient.maxUpdateBytes
  ) async throws -> PulledUpdates {
    var since = cursor
    var comments: [CoachComment] = []
    var plan: PlanFile?
    var pages = 0
    var bytes = 0
    while true {
      var path = "/api/v1/me/updates"
      if let since {
        path += "?since=" + (since.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? since)
      }
      let reply = try await send(.GET, path, token: session.token)
      guard reply.status == 200 else { throw failure(reply) }
      pages += 1
      bytes += reply.body.count
      if pages > maxPages || bytes > maxBytes {
        throw CoachClientError.tooManyUpdates(server: server, pages: pages - 1, bytes: bytes)
      }
      let answer = try Self.decode(UpdatesAnswer.self, from: reply, server: server)
      for comment in answer.comments {
        guard let date = CivilDate(iso: comment.date) else {
          throw CoachClientError.refused(
            server: server, status: reply.status, message: "a comment dated '\(comment.date.prefix(40))'")
        }
        comments.append(
          CoachComment(
            serverID: comment.id, date: date, author: comment.author, text: comment.text, createdAt: comment.createdAt))
      }
      if let text = answer.planFile {
        plan = try PlanFile.parse(Data(text.utf8), source: "the plan from \(server)")
      }
      guard answer.more, answer.cursor != since else {
        return PulledUpdates(comments: comments, plan: plan, cursor: answer.cursor)
      }
      since = answer.cursor
    }
  }

  /// Sends the plan of the athlete's own logbook (`PUT /api/v1/me/plan`) as its `runmate.plan-share/1` document,
  /// based on `cursor` (the last pull's): returns whether the server stored it and the cursor to keep.
  /// - Throws: ``CoachClientError/planChanged(server:)`` when a coach changed the plan on the server since.
  public func pushPlan(_ file: PlanFile, cursor: String?, session: CoachSession) async throws -> (
    stored: Bool, cursor: String
  ) {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let body = try encoder.encode(PlanPushBody(planFile: try file.encoded(), base: cursor))
    let reply = try await send(.PUT, "/api/v1/me/plan", token: session.token, json: body)
    if reply.status == 409 { throw CoachClientError.planChanged(server: server) }
    guard reply.status == 200 else { throw failure(reply) }
    let answer = try Self.decode(PlanPushAnswer.self, from: reply, server: server)
    return (answer.saved, answer.cursor)
  }
}
