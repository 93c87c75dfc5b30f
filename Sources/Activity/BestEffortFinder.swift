import RunningCore

/// Finds the fastest stretch of each of ``BestEffort/distances`` within a track, one point at a time (issue 24).
///
/// The track is the path travelled (device distance between points that both carry it, else haversine: the distance
/// ``TrackStatistics`` already measures) against time, linear between points. Over one continuous stretch, for each
/// distance two pointers slide forward: the effort ending at the newest point (its start interpolated at the exact
/// distance back) and the effort starting at each earlier point (its end interpolated between the last two points).
/// The fastest stretch has a point at one of its ends, so this finds it exactly. A stretch ends at a segment break,
/// a pause (see ``TrackStatistics``) or points out of time order: no effort spans one.
///
/// Memory is bounded: the points kept are those within the longest distance of the newest point, and no older than
/// that distance at ``TrackStatistics/minimumMovingSpeed`` (an effort slower than that is no running effort): at one
/// point a second, at most 47,200 points (16 bytes each) in use, whatever the track's length; points no longer in use
/// are dropped once they are over 1,024 and half of those kept, so at most about twice that is held.
struct BestEffortFinder {
  /// The distances looked for, metres, shortest first.
  let distances: [Double]
  /// The oldest a kept point may be, seconds before the newest.
  private let horizon: Double
  /// The points of the current stretch still needed: time (seconds since 1970) and path (metres since the stretch
  /// began). `base` is the index of the first one still in use; earlier ones are dropped in batches.
  private var times: [Double] = []
  private var paths: [Double] = []
  private var base = 0
  /// Per distance: the last point at or before the distance back from the newest point (the effort ending there
  /// starts between it and the next one), and the first point whose effort has not reached its end yet.
  private var startBefore: [Int]
  private var nextStart: [Int]
  /// Per distance: the fastest seconds found, and when that effort started (seconds since 1970).
  private(set) var fastest: [(seconds: Double, start: Double)?]

  init(distances: [Double] = BestEffort.distances) {
    self.distances = distances
    horizon = (distances.max() ?? 0) / TrackStatistics.minimumMovingSpeed
    startBefore = Array(repeating: 0, count: distances.count)
    nextStart = Array(repeating: 0, count: distances.count)
    fastest = Array(repeating: nil, count: distances.count)
  }

  /// Ends the current stretch: the next point starts another.
  mutating func breakStretch() {
    times.removeAll(keepingCapacity: true)
    paths.removeAll(keepingCapacity: true)
    base = 0
    for index in distances.indices {
      startBefore[index] = 0
      nextStart[index] = 0
    }
  }

  /// Adds the next point of the stretch: at `time`, later than the previous one, `path` metres since the stretch
  /// began (never less than the previous one's).
  mutating func add(time: Double, path: Double) {
    times.append(time)
    paths.append(path)
    let newest = times.count - 1
    // Points older than the horizon cannot start an effort worth keeping.
    while base < newest, time - times[base] > horizon { base += 1 }
    for index in distances.indices {
      let distance = distances[index]
      // The effort ending at the newest point, its start interpolated at `path − distance`.
      let from = path - distance
      var start = max(startBefore[index], base)
      while start + 1 < newest, paths[start + 1] <= from { start += 1 }
      startBefore[index] = start
      if paths[start] <= from, start < newest {
        let share = (from - paths[start]) / (paths[start + 1] - paths[start])
        let startTime = times[start] + share * (times[start + 1] - times[start])
        record(index, seconds: time - startTime, start: startTime)
      }
      // The efforts starting at earlier points that end between the previous point and this one.
      var next = max(nextStart[index], base)
      while next < newest, paths[next] + distance <= path {
        let to = paths[next] + distance
        let before = paths[newest - 1]
        let share = (to - before) / (path - before)
        let endTime = times[newest - 1] + share * (time - times[newest - 1])
        record(index, seconds: endTime - times[next], start: times[next])
        next += 1
      }
      nextStart[index] = next
    }
    compact()
  }

  /// Keeps the effort when it is the fastest so far; of efforts as fast (within a microsecond), the earliest.
  private mutating func record(_ index: Int, seconds: Double, start: Double) {
    guard seconds > 0 else { return }
    if let best = fastest[index],
      seconds > best.seconds + Self.tie || (seconds >= best.seconds - Self.tie && start >= best.start)
    {
      return
    }
    fastest[index] = (seconds, start)
  }

  /// Efforts this close in seconds are as fast.
  static let tie = 1e-6

  /// Drops the points no pointer needs any more, once they are many and most of the buffer.
  private mutating func compact() {
    // A pointer behind `base` is used as `base`.
    let needed = max(base, min(startBefore.min() ?? base, nextStart.min() ?? base))
    guard needed > 1_024, needed * 2 > times.count else { return }
    times.removeFirst(needed)
    paths.removeFirst(needed)
    base = 0
    for index in distances.indices {
      startBefore[index] = max(0, startBefore[index] - needed)
      nextStart[index] = max(0, nextStart[index] - needed)
    }
  }

  /// The efforts found, shortest first, each with its start as an offset from `activityStart` (seconds since 1970).
  func efforts(activityStart: Double) -> [BestEffort] {
    distances.indices.compactMap { index in
      fastest[index].map {
        BestEffort(
          distanceMeters: distances[index], seconds: $0.seconds, startOffsetSeconds: $0.start - activityStart)
      }
    }
  }
}
