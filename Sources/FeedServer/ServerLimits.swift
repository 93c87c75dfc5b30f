import RunningCore

/// A server setting out of range: the field, the value and what is allowed.
public struct ServerSettingError: FieldError {
  /// The setting.
  public let field: InputField
  /// The value given.
  public let value: String
  /// What is allowed; `relativeTo` names another setting it depends on (`1 to --max-connections (256)`).
  public let allowed: String
  /// The setting the allowed range is relative to, with its value.
  public let relativeTo: (field: InputField, value: Int)?

  /// `--port: '70000' is not valid, allowed is 0 to 65535`, each setting named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    let range = relativeTo.map { "\(allowed) \(name($0.field)) (\($0.value))" } ?? allowed
    return "\(name(field)): '\(value)' is not valid, allowed is \(range)"
  }

  /// The message with the settings in plain words.
  public var description: String { message(naming: \.label) }

  /// A value not allowed.
  public var kind: FailureKind { .badInput }
}

extension FeedServerConfiguration {
  /// A configuration of settings as the runner gives them (timeouts in seconds), each checked: the port 0 to 65535,
  /// timeouts above 0 and at most an hour, 1 to 1,000,000 connections and 1 to that many from one peer.
  public static func checked(
    host: String, port: Int, systemZone: String, accessLog: Bool, idleTimeoutSeconds: Double,
    headTimeoutSeconds: Double, requestTimeoutSeconds: Double = 120, maxConnections: Int, maxConnectionsPerPeer: Int,
    metricsFromAnyPeer: Bool
  ) throws(ServerSettingError) -> FeedServerConfiguration {
    func refuse(_ field: InputField, _ value: String, _ allowed: String) -> ServerSettingError {
      ServerSettingError(field: field, value: value, allowed: allowed, relativeTo: nil)
    }
    guard (0...65535).contains(port) else { throw refuse(.port, String(port), "0 to 65535") }
    guard idleTimeoutSeconds > 0, idleTimeoutSeconds <= 3600 else {
      throw refuse(.idleTimeout, String(idleTimeoutSeconds), "above 0, at most 3600 seconds")
    }
    guard headTimeoutSeconds > 0, headTimeoutSeconds <= 3600 else {
      throw refuse(.headTimeout, String(headTimeoutSeconds), "above 0, at most 3600 seconds")
    }
    guard requestTimeoutSeconds >= 1, requestTimeoutSeconds <= 3600 else {
      throw refuse(.requestTimeout, String(requestTimeoutSeconds), "1 to 3600 seconds")
    }
    guard (1...1_000_000).contains(maxConnections) else {
      throw refuse(.maxConnections, String(maxConnections), "1 to 1000000")
    }
    guard (1...maxConnections).contains(maxConnectionsPerPeer) else {
      throw ServerSettingError(
        field: .maxConnectionsPerPeer, value: String(maxConnectionsPerPeer), allowed: "1 to",
        relativeTo: (.maxConnections, maxConnections))
    }
    return FeedServerConfiguration(
      host: host, port: port, systemZone: systemZone, accessLog: accessLog,
      idleTimeout: .milliseconds(Int((idleTimeoutSeconds * 1000).rounded())),
      headTimeout: .milliseconds(Int((headTimeoutSeconds * 1000).rounded())),
      requestTimeout: .milliseconds(Int((requestTimeoutSeconds * 1000).rounded())), maxConnections: maxConnections,
      maxConnectionsPerPeer: maxConnectionsPerPeer, metricsFromAnyPeer: metricsFromAnyPeer)
  }
}
