/// Plans of many runners in one database: the same goal made for two athletes is two plans.
extension Plan {
  /// This plan as the plan of the runner `owner`: another stable id (the plan's own id and the owner's name hashed,
  /// the same for the same two), and every workout's id with it (`rm-…-w03-long`), so that two athletes given the same
  /// goal by their coach hold two plans, and a plan made again for the same athlete replaces theirs.
  public func owned(by owner: String) -> Plan {
    identified(as: hashedPlanID("runmate.owner/1|\(id)|\(owner)"))
  }

  /// This plan under the id `newID`, every workout's id with it (`newID-w03-long`): the same plan kept on two sides
  /// (the athlete's logbook and the coach's server) under each side's own id, so that each side's copy is replaced
  /// in place (its calendar events, feeds and matched runs kept) when the other side changes the plan.
  public func identified(as newID: String) -> Plan {
    var copy = self
    copy.id = newID
    for index in copy.weeks.indices {
      for slot in copy.weeks[index].workouts.indices {
        let workout = copy.weeks[index].workouts[slot]
        if workout.id.hasPrefix(id) {
          copy.weeks[index].workouts[slot].id = newID + workout.id.dropFirst(id.count)
        }
      }
    }
    return copy
  }
}
