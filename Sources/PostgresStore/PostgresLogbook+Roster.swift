import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  /// For each athlete of the coach `coach`, by name: the versions of the rows their roster row is made from (the
  /// profile's row; each plan's row, which holds its schedule settings and pauses; the count and newest version of
  /// their dated workouts; and of their plans' runs dated `runsFrom` or later), in one query. A row's version is its
  /// `xmin`, the transaction that wrote it: any insert, update or delete of those rows changes the fingerprint, on any
  /// server process, so a roster row kept under it is never stale.
  public func rosterFingerprints(ofCoach coach: String, runsFrom from: CivilDate) throws(LogbookError)
    -> [String: String]?
  {
    try read { tx in
      var fingerprints: [String: String] = [:]
      let rows = try tx.rows(
        """
        SELECT athlete.name, athlete.xmin::text,
          (SELECT coalesce(string_agg(plan.id || '@' || plan.xmin::text, ',' ORDER BY plan.id COLLATE "C"), '')
            FROM plan WHERE plan.profileID = athlete.id),
          (SELECT count(*)::text || '@' || coalesce(max(w.xmin::text::bigint), 0)::text
            FROM scheduledWorkout AS w JOIN plan ON plan.id = w.planID WHERE plan.profileID = athlete.id),
          (SELECT count(*)::text || '@' || coalesce(max(c.xmin::text::bigint), 0)::text
            FROM completion AS c JOIN plan ON plan.id = c.planID
            WHERE plan.profileID = athlete.id AND c.date COLLATE "C" >= \(from.description))
        FROM profile AS athlete
        JOIN coachAthlete ON coachAthlete.athleteID = athlete.id
        JOIN profile AS coach ON coach.id = coachAthlete.coachID
        WHERE coach.name = \(coach)
        """)
      for row in rows {
        let (name, profile, plans, workouts, runs) = try row.decode((String, String, String, String, String).self)
        fingerprints[name] = "\(profile)|\(plans)|\(workouts)|\(runs)"
      }
      return fingerprints
    }
  }
}
