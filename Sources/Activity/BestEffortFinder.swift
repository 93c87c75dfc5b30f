import RunningCore

/// Finds the fastest stretch of each of ``BestEffort/distances`` within a track, one point at a time (issue 24).
///
/// The track is the path travelled (device distance between points that both carry it, else haversine: the distance
/// ``TrackStatistics`` already measures) against time, linear between points. Over one continuous stretch, for each
/// distance one pointer slides forward over the points whose effort has not ended: each effort starting at a point
/// ends between the last two points once the path passes it by the distance (its end interpolated there), and the
/// effort ending at the newest point starts just before the pointer (its start interpolated at the exact distance).
/// The fastest stretch has a point at one of its ends, so this finds it exactly. A stretch ends at a segment break,
/// a pause (see ``TrackStatistics``) or points out of time order: no effort spans one.
///
/// Memory is bounded: the points in use are those within the longest distance of the newest point, and no older than
/// that distance at ``TrackStatistics/minimumMovingSpeed`` (an effort slower than that is no running effort): at one
/// point a second, at most 47,200 points (16 bytes each) whatever the track's length; points no longer in use are
/// dropped once they are over 4,096 and half of those kept, so at most about twice that is held. A distance longer
/// than the stretch so far costs nothing.
struct BestEffortFinder {
  /// One distance looked for: its pointers into ``points`` and the fastest effort so far.
  private struct Lane {
    var distance: Double
    /// The first point whose effort has not reached its end yet (the effort ending at the newest point starts
    /// between the point before it and it).
    var nextStart = 0
    /// The fastest seconds found (+∞ before any), and when that effort started (seconds since 1970).
    var seconds = Double.infinity
    var start = 0.0
  }

  private struct Point {
    /// Seconds since 1970.
    var time: Double
    /// Metres travelled since the stretch began.
    var path: Double
  }

  /// Efforts this close in seconds are as fast: the earliest is kept.
  static let tie = 1e-6

  /// Per distance, shortest first.
  private var lanes: [Lane]
  /// The oldest a point in use may be, seconds before the newest.
  private let horizon: Double
  /// The points of the current stretch from the first still kept; `base` is the first one still in use.
  private var points: ContiguousArray<Point> = []
  private var base = 0

  init(distances: [Double] = BestEffort.distances) {
    lanes = distances.sorted().map { Lane(distance: $0) }
    horizon = (distances.max() ?? 0) / TrackStatistics.minimumMovingSpeed
  }

  /// Ends the current stretch: the next point starts another.
  mutating func breakStretch() {
    points.removeAll(keepingCapacity: true)
    base = 0
    for index in lanes.indices { lanes[index].nextStart = 0 }
  }

  /// Adds the next point of the stretch: at `time`, later than the previous one, `path` metres since the stretch
  /// began (never less than the previous one's).
  mutating func add(time: Double, path: Double) {
    points.append(Point(time: time, path: path))
    let newest = points.count - 1
    var first = base
    points.withUnsafeBufferPointer { points in
      // Points older than the horizon cannot start an effort worth keeping.
      while first < newest, time - points[first].time > horizon { first += 1 }
      let span = path - points[first].path
      let previous = newest > 0 ? points[newest - 1] : points[newest]
      lanes.withUnsafeMutableBufferPointer { lanes in
        for index in lanes.indices {
          let distance = lanes[index].distance
          // Shortest first: no longer distance fits in the stretch yet (and no end has been passed for it).
          if span < distance { break }
          // The efforts starting at earlier points that end between the previous point and this one: those up to
          // `path − distance`, which leaves `next` on the first point after it.
          var next = max(lanes[index].nextStart, first)
          let rise = path - previous.path
          let duration = time - previous.time
          while next < newest, points[next].path + distance <= path {
            // It ends at previous + (to − previous.path) / rise × duration: compared with the best so far
            // multiplied out (rise > 0), so the division is only for one that may be the fastest.
            let start = points[next]
            let to = start.path + distance
            if (to - previous.path) * duration < (lanes[index].seconds + Self.tie + start.time - previous.time) * rise {
              let endTime = previous.time + (to - previous.path) / rise * duration
              Self.record(&lanes[index], seconds: endTime - start.time, start: start.time)
            }
            next += 1
          }
          // The effort ending at the newest point starts between the point before `next` (at or before
          // `path − distance`) and `next` (after it), at a + (from − a.path) / (b.path − a.path) × (b.time − a.time):
          // compared multiplied out too (b.path > from ≥ a.path).
          if next > first {
            let a = points[next - 1]
            let b = points[next]
            let from = path - distance
            if (time - a.time - lanes[index].seconds - Self.tie) * (b.path - a.path) < (from - a.path)
              * (b.time - a.time)
            {
              let startTime = a.time + (from - a.path) / (b.path - a.path) * (b.time - a.time)
              Self.record(&lanes[index], seconds: time - startTime, start: startTime)
            }
          }
          lanes[index].nextStart = next
        }
      }
    }
    base = first
    if newest & 4_095 == 0 { compact() }
  }

  /// Keeps the effort when it is the fastest so far; of efforts as fast (within ``tie``), the earliest.
  @inline(__always)
  private static func record(_ lane: inout Lane, seconds: Double, start: Double) {
    guard seconds > 0, seconds < lane.seconds - tie || (seconds <= lane.seconds + tie && start < lane.start) else {
      return
    }
    lane.seconds = seconds
    lane.start = start
  }

  /// Drops the points no pointer needs any more, once they are many and most of the buffer.
  private mutating func compact() {
    // A pointer behind `base` is used as `base`.
    var needed = points.count
    // The point before each lane's next start is in use too.
    for lane in lanes { needed = min(needed, lane.nextStart - 1) }
    needed = max(base, needed)
    guard needed > 4_096, needed * 2 > points.count else { return }
    points.removeFirst(needed)
    base = 0
    for index in lanes.indices { lanes[index].nextStart = max(0, lanes[index].nextStart - needed) }
  }

  /// The efforts found, shortest first, each with its start as an offset from `activityStart` (seconds since 1970).
  func efforts(activityStart: Double) -> [BestEffort] {
    lanes.compactMap { lane in
      lane.seconds.isFinite
        ? BestEffort(
          distanceMeters: lane.distance, seconds: lane.seconds, startOffsetSeconds: lane.start - activityStart)
        : nil
    }
  }
}
