import RunTracking

// The run's course, for the page: its places go in one by one between `run_course_begin` and
// `run_course_end`, after `run_plan` and before `run_start`; then, during the run, whether the
// runner is off the course and where along it they are, in numbers the page draws with.

/// The course given since `run_plan`, once `run_course_end` has taken it.
nonisolated(unsafe) var plannedCourse: Course?
/// The places given since `run_course_begin`.
nonisolated(unsafe) var coursePoints: [Course.Point] = []

/// Starts taking a course's places.
@_expose(wasm, "run_course_begin")
@_cdecl("run_course_begin")
func runCourseBegin() {
    coursePoints = []
    plannedCourse = nil
}

/// One place of the course, in order. Past `Course.maximumPointCount` places they are
/// counted, not kept, so that `run_course_end` refuses the course without holding them all.
@_expose(wasm, "run_course_point")
@_cdecl("run_course_point")
func runCoursePoint(latitude: Double, longitude: Double) {
    guard coursePoints.count <= Course.maximumPointCount else { return }
    coursePoints.append(Course.Point(latitude: latitude, longitude: longitude))
}

/// Takes the places given as the run's course: 0, or why it is refused: 1 fewer than two
/// distinct places, 2 shorter than 100 m, 3 longer than 1000 km, 4 more than 200,000 places,
/// 5 a place that cannot be on Earth (the course's codes of `RunTrackingError`, in order).
@_expose(wasm, "run_course_end")
@_cdecl("run_course_end")
func runCourseEnd() -> Int32 {
    defer { coursePoints = [] }
    do throws(RunTrackingError) {
        plannedCourse = try Course(points: coursePoints)
        return 0
    } catch {
        plannedCourse = nil
        switch error.code {
        case .courseTooShort: return 2
        case .courseTooLong: return 3
        case .courseTooManyPoints: return 4
        case .invalidCoursePoint: return 5
        // A course is refused with its own codes alone; any other would be a course with no way.
        case .courseTooFewPoints, .invalidMarker, .invalidPace, .invalidDistance, .duplicateMessage: return 1
        }
    }
}

/// The course's length in metres: the run's course once started, else the one given; 0 with none.
@_expose(wasm, "run_course_length")
@_cdecl("run_course_length")
func runCourseLength() -> Double { (run?.tracker.courseTracker?.course ?? plannedCourse)?.length ?? 0 }

/// 1 while the runner is off the course, 0 on it or without a course.
@_expose(wasm, "run_off_course")
@_cdecl("run_off_course")
func runOffCourse() -> Int32 { run?.tracker.courseTracker?.isOffCourse == true ? 1 : 0 }

/// 1 while a run that began away from the course has not reached it yet (Start pressed in the
/// start's pen, or on a warm-up), 0 otherwise: off the course, but nothing of it left.
@_expose(wasm, "run_course_before_start")
@_cdecl("run_course_before_start")
func runCourseBeforeStart() -> Int32 { run?.tracker.courseTracker?.startedAway != nil ? 1 : 0 }

/// Metres along the course where the runner is (never decreasing), or NaN without a course.
@_expose(wasm, "run_course_meters")
@_cdecl("run_course_meters")
func runCourseMeters() -> Double { run?.tracker.courseTracker?.meters ?? .nan }

/// How far from the course the last fix used was, in metres, or NaN when unknown.
@_expose(wasm, "run_course_lateral")
@_cdecl("run_course_lateral")
func runCourseLateral() -> Double { run?.tracker.courseTracker?.lateral ?? .nan }

/// Off the course, where along it the runner was last on it; NaN on it or without a course.
@_expose(wasm, "run_course_left_meters")
@_cdecl("run_course_left_meters")
func runCourseLeftMeters() -> Double { run?.tracker.courseTracker?.leftAt ?? .nan }

/// The latitude of the place `meters` along the course (the run's, else the one given), or NaN.
@_expose(wasm, "run_course_latitude")
@_cdecl("run_course_latitude")
func runCourseLatitude(meters: Double) -> Double { courseForPlaces()?.place(at: meters).latitude ?? .nan }

/// The longitude of the place `meters` along the course, or NaN.
@_expose(wasm, "run_course_longitude")
@_cdecl("run_course_longitude")
func runCourseLongitude(meters: Double) -> Double { courseForPlaces()?.place(at: meters).longitude ?? .nan }

private func courseForPlaces() -> Course? { run?.tracker.courseTracker?.course ?? plannedCourse }
