import Foundation
import Ingest
import PlanEngine
import RunningCore
import Training
import TrainingDomain

// The views of Training's use cases as the coach API's JSON (the generated types): kilometres to 0.1 km
// (`jsonKm`), seconds whole, days as `YYYY-MM-DD`.

/// An account as the API shows it (never its password hash).
func render(_ account: TrainingDomain.Account) -> Components.Schemas.Account {
  .init(login: account.login, role: render(account.role), profile: account.profileName)
}

func render(_ role: AccountRole) -> Components.Schemas.Role {
  switch role {
  case .coach: .coach
  case .athlete: .athlete
  }
}

func render(_ colour: ComplianceColour) -> Components.Schemas.Colour {
  switch colour {
  case .green: .green
  case .yellow: .yellow
  case .orange: .orange
  case .red: .red
  case .none: Components.Schemas.Colour.none
  }
}

func render(_ roster: Roster) -> Components.Schemas.Roster {
  .init(
    coach: roster.coach, today: roster.today.description,
    athletes: roster.athletes.map { row in
      .init(
        name: row.name, plan: row.plan, planId: row.planID, week: row.week?.number,
        weekStart: row.week?.start.description, plannedKm: row.week.flatMap { jsonKm($0.planned.kilometers) },
        doneKm: row.week.flatMap { jsonKm($0.done.kilometers) }, plannedSessions: row.week?.plannedSessions,
        doneSessions: row.week?.doneSessions, missedSessions: row.week?.missedSessions,
        compliancePercent: row.week?.compliancePercent, paused: row.isPaused,
        colour: render(row.colour),
        missedKeyWorkouts: row.missedKeyWorkouts.map { workout in
          .init(
            date: workout.date.description, kind: workout.kind.rawValue, distanceKm: jsonKm(workout.distanceKm) ?? 0)
        }, fitness: row.load?.fitness, fatigue: row.load?.fatigue, form: row.load?.form)
    })
}

func render(_ view: AthletePlanView) -> Components.Schemas.AthletePlan {
  render(view.saved, athlete: view.athlete)
}

func render(_ saved: SavedPlan, athlete: String) -> Components.Schemas.AthletePlan {
  let goal = saved.plan.goal
  return .init(
    athlete: athlete, planId: saved.id, name: saved.name, distance: goal.distance.rawValue, level: goal.level.rawValue,
    start: goal.start.description, raceDate: goal.raceDate.description, weeks: goal.weeks,
    goalTimeS: goal.goalTimeSeconds)
}

func render(_ week: AthleteWeek) -> Components.Schemas.AthleteWeek {
  .init(
    number: week.week.number, start: week.week.start.description, phase: week.week.phase.rawValue,
    plannedKm: jsonKm(week.progress.planned.kilometers) ?? 0, doneKm: jsonKm(week.progress.done.kilometers) ?? 0,
    plannedSessions: week.progress.plannedSessions, doneSessions: week.progress.doneSessions,
    missedSessions: week.progress.missedSessions, compliancePercent: week.progress.compliancePercent,
    paused: week.progress.isPaused, colour: render(week.colour),
    workouts: week.workouts.map { workout, status in
      .init(
        id: workout.id, date: workout.date.description, kind: workout.kind.rawValue,
        distanceKm: jsonKm(workout.distanceKm) ?? 0,
        status: Components.Schemas.PlannedWorkout.StatusPayload(rawValue: status.rawValue) ?? .upcoming)
    })
}

func render(_ entry: (run: Completion, status: WorkoutStatus?)) -> Components.Schemas.Run {
  let run = entry.run
  return .init(
    id: run.id ?? 0, date: run.date.description, distanceKm: jsonKm(run.distanceKm) ?? 0,
    durationS: jsonSeconds(run.durationSeconds) ?? 0, kind: run.kind?.rawValue, source: run.source.rawValue,
    workoutId: run.workoutID, status: entry.status?.rawValue, note: run.note)
}

func render(_ comment: WorkoutComment) -> Components.Schemas.Comment {
  .init(
    id: comment.id, athlete: comment.athlete, date: comment.date.description, author: comment.author,
    role: render(comment.role), text: comment.text, createdAt: comment.createdAt)
}

func render(_ trainer: TrainerView) -> Components.Schemas.Trainer {
  .init(
    name: trainer.name, specialty: trainer.specialty, certifications: trainer.certifications, bio: trainer.bio,
    contact: .init(whatsapp: trainer.whatsapp, telegram: trainer.telegram, email: trainer.email))
}
