import Foundation
import HummingbirdBcrypt
import RunningCore
import TrainingDomain

/// What is wrong with a new account, by field: the CLI names each field by its option.
public enum AccountError: FieldError, Sendable, Equatable {
  /// A value outside what is allowed.
  case invalid(field: InputField, value: String, allowed: String)
  /// A coach account for a profile that is not a coach's.
  case notACoachProfile(profile: String)

  /// A bad input: change it.
  public var kind: FailureKind { .badInput }

  /// One line naming the field, the value and what is allowed.
  public func message(naming name: (InputField) -> String) -> String {
    switch self {
    case .invalid(let field, let value, let allowed):
      "\(name(field)): '\(value)' is not valid, allowed is \(allowed)"
    case .notACoachProfile(let profile):
      "\(name(.role)): 'coach' needs a coach's profile, and '\(profile)' is not one; make it one with "
        + "`runmate profile set \(name(.profile)) \(profile) \(name(.coach))`, or give \(name(.role)) athlete"
    }
  }
}

/// The rules of coach API accounts.
public enum AccountRules {
  /// A password's length in UTF-8 bytes: at least 10, and at most 72, all of which bcrypt reads (it ignores the rest,
  /// so a longer one is refused rather than cut short).
  public static let passwordBytes = 10...72
  /// bcrypt's cost for new passwords (2^12 rounds: about a quarter of a second here).
  public static let defaultCost: UInt8 = 12
  /// How long a session token opens the API.
  public static let tokenLifetime: TimeInterval = 30 * 24 * 3600

  /// The login checked: an e-mail address (as profiles take them) or a name of 3 to 64 letters, digits, `.`, `_` or
  /// `-`, trimmed.
  public static func checkedLogin(_ login: String) throws(AccountError) -> String {
    let trimmed = login.trimmingCharacters(in: .whitespaces)
    if trimmed.contains("@") {
      guard trimmed.utf8.count <= 254, Profile.mailtoLink(trimmed) != nil else {
        throw .invalid(
          field: .login, value: trimmed, allowed: "an e-mail address like coach@example.com, or a login name")
      }
      return trimmed
    }
    let allowed = trimmed.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
        true
      default: false
      }
    }
    guard (3...64).contains(trimmed.utf8.count), allowed else {
      throw .invalid(
        field: .login, value: trimmed,
        allowed: "an e-mail address, or a login name of 3 to 64 letters, digits, '.', '_' or '-' (e.g. kim.coach)")
    }
    return trimmed
  }

  /// The role named `text` (`coach` or `athlete`).
  public static func role(_ text: String) throws(AccountError) -> AccountRole {
    guard let role = AccountRole(rawValue: text.lowercased()) else {
      throw .invalid(field: .role, value: text, allowed: "coach or athlete")
    }
    return role
  }

  /// The password checked (its length only: it is never shown).
  public static func checkPassword(_ password: String) throws(AccountError) {
    if let bad = password.unicodeScalars.first(where: { ["\u{0}", "\n", "\r"].contains($0) }) {
      // bcrypt reads a password up to its first NUL, so "secret\0anything" would be "secret"; a line break is a
      // password file's line end read with it.
      throw .invalid(
        field: .password, value: "\(password.utf8.count) bytes",
        allowed: "a password without \(TextRules.shown(bad)) (bcrypt stops at a NUL; a line end is not part of it)")
    }
    guard passwordBytes.contains(password.utf8.count),
      !password.allSatisfy(\.isWhitespace)
    else {
      throw .invalid(
        field: .password, value: "\(password.utf8.count) bytes",
        allowed:
          "\(passwordBytes.lowerBound) to \(passwordBytes.upperBound) bytes (bcrypt reads no more), not only spaces")
    }
  }
}

/// Creates a coach API account for the profile `profile`: the login and password checked, the password hashed with
/// bcrypt at `cost`, the account and its audit line stored in one transaction.
/// - Throws: ``AccountError`` for a bad login, role or password, or a coach account for a runner's profile;
///   ``LogbookError/noSuchProfile(name:known:)`` and ``LogbookError/accountExists(login:)``.
public func createAccount(
  login: String, role: String, profile: String, password: String, in store: any TrainingStore, now: Date,
  cost: UInt8 = AccountRules.defaultCost
) throws -> Account {
  let login = try AccountRules.checkedLogin(login)
  let role = try AccountRules.role(role)
  try AccountRules.checkPassword(password)
  guard let found = try store.profile(named: profile), let profileID = found.id else {
    throw LogbookError.noSuchProfile(name: profile, known: try store.profiles().map(\.name))
  }
  if role == .coach, !found.isCoach { throw AccountError.notACoachProfile(profile: profile) }
  if try store.account(login: login) != nil { throw LogbookError.accountExists(login: login) }
  return try store.createAccount(
    login: login, role: role, profileID: profileID, passwordHash: Bcrypt.hash(password, cost: cost), at: now)
}
