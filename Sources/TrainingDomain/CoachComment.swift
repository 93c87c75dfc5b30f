import Foundation
import RunningCore

/// A coach's comment on one of the athlete's workouts, as `runmate pull` gets it from a coach server and the runner's
/// own logbook keeps it.
public struct CoachComment: Sendable, Hashable {
  /// The comment's number on the server it came from (``WorkoutComment/id`` there): with the server, what makes the
  /// comment one, however often it is pulled.
  public var serverID: Int64
  /// The workout's day.
  public var date: CivilDate
  /// The coach's profile name.
  public var author: String
  /// The text.
  public var text: String
  /// When it was written.
  public var createdAt: Date
  /// The title of the workout of that day in the athlete's own plan (`Tempo 7.5 km`), when it has one.
  public var workout: String?

  /// A comment.
  public init(
    serverID: Int64, date: CivilDate, author: String, text: String, createdAt: Date, workout: String? = nil
  ) {
    self.serverID = serverID
    self.date = date
    self.author = author
    self.text = text
    self.createdAt = createdAt
    self.workout = workout
  }
}
