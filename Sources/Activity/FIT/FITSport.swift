/// FIT `sport` and `sub_sport` values (FIT profile, "Types") named in the words ``DeclaredSport`` reads, so that a
/// FIT run is a run and every other sport is named as in GPX and TCX files.
enum FITSport {
  /// The sport named for ``ActivitySummary/sport``: a run's kind (`running`, `trail_running`, `treadmill_running`,
  /// `track_running`, `road_running`, `indoor_running`, `virtual_run`), else the FIT name of the sport (`cycling`,
  /// `swimming`, `walking`, …, `sport 200` for a number the profile does not name); nil when the file names none.
  /// A treadmill on fitness equipment (sport 4, sub-sport 1) is a treadmill run, as Garmin records some of them.
  static func name(sport: Int?, subSport: Int?) -> String? {
    guard let sport else { return nil }
    if sport == 1 || (sport == 4 && subSport == 1) {
      switch subSport {
      case 1: return "treadmill_running"
      case 2: return "road_running"
      case 3: return "trail_running"
      case 4: return "track_running"
      case 45: return "indoor_running"
      case 58: return "virtual_run"
      default: return "running"
      }
    }
    return sports[sport] ?? "sport \(sport)"
  }

  /// The profile's sport names (the `sport` type).
  static let sports: [Int: String] = [
    0: "generic", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming", 6: "basketball",
    7: "soccer", 8: "tennis", 9: "american_football", 10: "training", 11: "walking", 12: "cross_country_skiing",
    13: "alpine_skiing", 14: "snowboarding", 15: "rowing", 16: "mountaineering", 17: "hiking", 18: "multisport",
    19: "paddling", 20: "flying", 21: "e_biking", 22: "motorcycling", 23: "boating", 24: "driving", 25: "golf",
    26: "hang_gliding", 27: "horseback_riding", 28: "hunting", 29: "fishing", 30: "inline_skating",
    31: "rock_climbing", 32: "sailing", 33: "ice_skating", 34: "sky_diving", 35: "snowshoeing", 36: "snowmobiling",
    37: "stand_up_paddleboarding", 38: "surfing", 39: "wakeboarding", 40: "water_skiing", 41: "kayaking",
    42: "rafting", 43: "windsurfing", 44: "kitesurfing", 45: "tactical", 46: "jumpmaster", 47: "boxing",
    48: "floor_climbing", 49: "baseball", 53: "diving", 56: "shooting", 58: "winter_sport", 59: "grinding",
    62: "hiit", 63: "video_gaming", 64: "racket", 65: "wheelchair_push_walk", 66: "wheelchair_push_run",
    67: "meditation", 68: "para_sport", 69: "disc_golf", 70: "team_sport", 71: "cricket", 72: "rugby",
    73: "hockey", 74: "lacrosse", 75: "volleyball", 76: "water_tubing", 77: "wakesurfing", 78: "water_sport",
    79: "archery", 80: "mixed_martial_arts", 81: "motor_sports", 82: "snorkeling", 83: "dance", 84: "jump_rope",
    85: "pool_apnea", 86: "mobility", 87: "geocaching", 88: "canoeing",
  ]

  /// The profile's file types (`file_id.type`) a runner may meet, for the message refusing a file that holds no
  /// activity.
  static let fileTypes: [Int: String] = [
    1: "device", 2: "settings", 3: "sport", 4: "activity", 5: "workout", 6: "course", 7: "schedules", 9: "weight",
    10: "totals", 11: "goals", 14: "blood_pressure", 15: "monitoring_a", 20: "activity_summary",
    28: "monitoring_daily", 32: "monitoring_b", 34: "segment", 35: "segment_list",
  ]
}
