import Foundation
import Metrics
import Prometheus

/// The feed server's metrics, served at `GET /metrics` in the Prometheus text format.
///
/// They are made through swift-metrics with a factory this server owns (a `PrometheusMetricsFactory` over its own
/// `PrometheusCollectorRegistry`), not through the process-wide `MetricsSystem.bootstrap`, which can be called only
/// once: several servers in one process (the tests start many) each count their own requests. Every label takes its
/// values from a small fixed set (routes, status codes, refusal reasons), so the registry stays bounded whatever
/// clients send.
public final class FeedMetrics: Sendable {
  /// The registry `GET /metrics` writes out.
  public let registry: PrometheusCollectorRegistry
  private let requests: MetricTable<Metrics.Counter>
  private let latency: MetricTable<Metrics.Timer>
  private let refusals: MetricTable<Metrics.Counter>
  /// Feeds rendered (a cache miss: the plan or its log changed, or the first fetch since the start).
  let renders: Metrics.Counter
  /// Feeds answered from the cache (200 or 304 without rendering).
  let cacheHits: Metrics.Counter
  /// Connections open now.
  let openConnections: Meter
  /// Connections closed before sending a whole request head (idle or slow clients dropped at the idle timeout or the
  /// head deadline, or displaced).
  let droppedConnections: Metrics.Counter
  /// Connections closed to make room for a new one at the connection limit (each waited longest for a request head).
  let displacedConnections: Metrics.Counter

  /// The latency histogram's buckets: from a quarter millisecond (a cached 304) to 2.5 s.
  static let latencyBuckets: [Duration] = [
    .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
    .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
    .milliseconds(1000), .milliseconds(2500),
  ]

  /// A new, empty set of metrics with a registry of its own.
  public init() {
    let registry = PrometheusCollectorRegistry()
    let factory = {
      var factory = PrometheusMetricsFactory(registry: registry)
      factory.defaultDurationHistogramBuckets = Self.latencyBuckets
      return factory
    }()
    self.registry = registry
    requests = MetricTable { key in
      Metrics.Counter(
        label: "runmate_http_requests_total", dimensions: [("route", key.0), ("status", key.1)], factory: factory)
    }
    latency = MetricTable { key in
      Metrics.Timer(
        label: "runmate_http_request_duration_seconds", dimensions: [("route", key.0)], factory: factory)
    }
    refusals = MetricTable { key in
      Metrics.Counter(label: "runmate_http_refused_total", dimensions: [("reason", key.0)], factory: factory)
    }
    renders = Metrics.Counter(label: "runmate_feed_renders_total", factory: factory)
    cacheHits = Metrics.Counter(label: "runmate_feed_cache_hits_total", factory: factory)
    openConnections = Meter(label: "runmate_http_open_connections", factory: factory)
    droppedConnections = Metrics.Counter(label: "runmate_http_dropped_connections_total", factory: factory)
    displacedConnections = Metrics.Counter(label: "runmate_http_displaced_connections_total", factory: factory)
  }

  /// Counts one answered request on `route` (one of ``FeedRoute``'s names) and its time.
  func recordRequest(route: FeedRoute, status: Int, duration: Duration) {
    requests.metric(for: (route.rawValue, String(status))).increment()
    latency.metric(for: (route.rawValue, "")).recordInterval(duration)
  }

  /// Counts a request refused before it reached the router (`reason`: a fixed word such as `head-too-large`).
  func recordRefusal(reason: String) {
    refusals.metric(for: (reason, "")).increment()
  }

  /// The Prometheus text exposition of every metric.
  func exposition() -> [UInt8] { registry.emitToBuffer() }
}

/// The routes as metrics label them: the token never appears, and anything unknown is `other`.
enum FeedRoute: String, Sendable {
  case feed = "/feeds/{token}.ics"
  case health = "/healthz"
  case metrics = "/metrics"
  case api = "/api/v1"
  case other

  /// The route a request path falls under.
  init(path: String) {
    switch path {
    case "/healthz": self = .health
    case "/metrics": self = .metrics
    case _ where path.hasPrefix("/feeds/") && path.hasSuffix(".ics"): self = .feed
    case _ where path.hasPrefix("/api/"): self = .api
    default: self = .other
    }
  }
}

/// Metrics made once per label pair and kept (swift-metrics handles are looked up under the registry's lock; this
/// keeps the request path to one dictionary read).
final class MetricTable<Metric: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var metrics: [String: Metric] = [:]
  private let make: @Sendable ((String, String)) -> Metric

  init(make: @escaping @Sendable ((String, String)) -> Metric) { self.make = make }

  func metric(for key: (String, String)) -> Metric {
    let name = key.0 + "\u{0}" + key.1
    return lock.withLock {
      if let metric = metrics[name] { return metric }
      let metric = make(key)
      metrics[name] = metric
      return metric
    }
  }
}

extension Metrics.Timer {
  /// Records `duration` in nanoseconds.
  func recordInterval(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
