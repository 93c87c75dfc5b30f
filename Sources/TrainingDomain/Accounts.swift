import Foundation
import RunningCore

/// What an account of the coach API may do: a coach sees their athletes, an athlete sees themself.
public enum AccountRole: String, Sendable, Hashable, Codable, CaseIterable {
  /// A coach: the roster, the athletes' plans, weeks, runs and comments.
  case coach
  /// An athlete: their own plan, weeks, runs and comments.
  case athlete
}

/// An account of the coach API: a login for one profile, with its bcrypt password hash (never the password).
public struct Account: Sendable, Hashable {
  /// The database id.
  public var id: Int64
  /// The login name or e-mail address, as created (compared without regard to case).
  public var login: String
  /// Coach or athlete.
  public var role: AccountRole
  /// The profile the account is.
  public var profileID: Int64
  /// That profile's name.
  public var profileName: String
  /// The bcrypt hash of the password (`$2b$…`).
  public var passwordHash: String
  /// When it was created.
  public var createdAt: Date

  /// An account as stored.
  public init(
    id: Int64, login: String, role: AccountRole, profileID: Int64, profileName: String, passwordHash: String,
    createdAt: Date
  ) {
    self.id = id
    self.login = login
    self.role = role
    self.profileID = profileID
    self.profileName = profileName
    self.passwordHash = passwordHash
    self.createdAt = createdAt
  }
}

/// A comment on an athlete's workout of a day, by the athlete or one of their coaches.
public struct WorkoutComment: Sendable, Hashable {
  /// The database id.
  public var id: Int64
  /// The athlete's profile name.
  public var athlete: String
  /// The plan the workout belongs to.
  public var planID: String
  /// The workout's day.
  public var date: CivilDate
  /// The author's profile name.
  public var author: String
  /// The author's role.
  public var role: AccountRole
  /// The text.
  public var text: String
  /// When it was written.
  public var createdAt: Date

  /// A comment as stored.
  public init(
    id: Int64, athlete: String, planID: String, date: CivilDate, author: String, role: AccountRole, text: String,
    createdAt: Date
  ) {
    self.id = id
    self.athlete = athlete
    self.planID = planID
    self.date = date
    self.author = author
    self.role = role
    self.text = text
    self.createdAt = createdAt
  }
}

/// One line of the audit log: who (an account, or the server's admin at the command line) did what, about which
/// athlete, when.
public struct AuditEntry: Sendable, Hashable {
  /// What was done.
  public enum Action: String, Sendable, Hashable, CaseIterable {
    /// An account was created (`runmate account create`).
    case accountCreated = "account.create"
    /// An account logged in (a token was issued).
    case sessionCreated = "session.create"
    /// A token was revoked (logged out).
    case sessionRevoked = "session.revoke"
    /// A comment was written on a workout.
    case commentAdded = "comment.add"
    /// An athlete pushed runs from their own logbook (`runmate push`).
    case runsPushed = "runs.push"
    /// A coach assigned an athlete a new plan.
    case planAssigned = "plan.assign"
    /// A coach rebuilt an athlete's plan from their runs (a replan).
    case planRegenerated = "plan.replan"
    /// An athlete sent the plan of their own logbook (`runmate push`).
    case planPushed = "plan.push"
  }

  /// The database id.
  public var id: Int64
  /// The account's login, nil for the server's admin.
  public var login: String?
  /// What was done.
  public var action: Action
  /// The athlete's profile name, when it concerns one.
  public var athlete: String?
  /// What changed, in a few words (never a password or token).
  public var detail: String
  /// When.
  public var at: Date

  /// An entry as stored.
  public init(id: Int64, login: String?, action: Action, athlete: String?, detail: String, at: Date) {
    self.id = id
    self.login = login
    self.action = action
    self.athlete = athlete
    self.detail = detail
    self.at = at
  }
}
