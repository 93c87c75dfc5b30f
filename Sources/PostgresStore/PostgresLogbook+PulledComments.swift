import Foundation
import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  /// Keeps pulled comments, each once per server and number, in one transaction; returns how many were new.
  public func keepPulledComments(_ comments: [CoachComment], server: String, planID: String?) throws(LogbookError)
    -> Int
  {
    for comment in comments { try checkFreeText(comment.text, record: "comment on \(comment.date)", field: .text) }
    guard !comments.isEmpty else { return 0 }
    return try write { tx in
      var added = 0
      for comment in comments {
        added += try tx.execute(
          """
          INSERT INTO pulledComment (server, serverID, planID, date, author, text, createdAt)
          VALUES (\(server), \(comment.serverID), \(planID), \(comment.date.description), \(comment.author),
            \(comment.text), \(stored(comment.createdAt)))
          ON CONFLICT (server, serverID) DO NOTHING
          """)
      }
      return added
    }
  }

  /// The comments kept for a plan on a range of days, by date, then by their number on the server.
  public func pulledComments(planID: String, from: CivilDate, through: CivilDate) throws(LogbookError)
    -> [CoachComment]
  {
    try read { tx in
      try tx.rows(
        """
        SELECT serverID, date, author, text, createdAt FROM pulledComment
        WHERE planID = \(planID) AND date COLLATE "C" >= \(from.description) AND date COLLATE "C" <= \(through.description)
        ORDER BY date COLLATE "C", server COLLATE "C", serverID
        """
      ).compactMap { row in
        let (serverID, day, author, text, createdAt) = try row.decode((Int64, String, String, String, Date).self)
        guard let date = CivilDate(iso: day) else { return nil }
        return CoachComment(serverID: serverID, date: date, author: author, text: text, createdAt: createdAt)
      }
    }
  }
}
