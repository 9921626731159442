import Foundation

/// How a runner moves along a path: pieces of constant speed, so the true distance at any
/// time is known exactly.
struct Motion: Sendable {
    struct Piece: Sendable {
        var seconds: Double
        var speed: Double
    }

    var pieces: [Piece]
    var duration: Double { pieces.reduce(0) { $0 + $1.seconds } }

    /// Metres covered at `time` seconds since the start.
    func distance(at time: Double) -> Double {
        var elapsed = 0.0, meters = 0.0
        for piece in pieces {
            if time <= elapsed + piece.seconds { return meters + (time - elapsed) * piece.speed }
            elapsed += piece.seconds
            meters += piece.seconds * piece.speed
        }
        return meters
    }

    /// The first time `meters` are covered.
    func time(atDistance meters: Double) -> Double {
        var elapsed = 0.0, covered = 0.0
        for piece in pieces {
            let next = covered + piece.seconds * piece.speed
            if meters <= next, piece.speed > 0 { return elapsed + (meters - covered) / piece.speed }
            elapsed += piece.seconds
            covered = next
        }
        return elapsed
    }

    func speed(at time: Double) -> Double {
        var elapsed = 0.0
        for piece in pieces {
            if time < elapsed + piece.seconds { return piece.speed }
            elapsed += piece.seconds
        }
        return pieces.last?.speed ?? 0
    }

    /// `length` metres at a steady speed.
    static func steady(_ speed: Double, length: Double) -> Motion {
        Motion(pieces: [Piece(seconds: length / speed, speed: speed)])
    }

    /// Run-walk: `runSeconds` at `run` m/s, then `walkSeconds` at `walk` m/s, over and over.
    static func walkBreaks(run: Double, walk: Double, runSeconds: Double, walkSeconds: Double, length: Double) -> Motion {
        var pieces: [Piece] = []
        var left = length
        while left > 0 {
            for (speed, seconds) in [(run, runSeconds), (walk, walkSeconds)] where left > 0 {
                let piece = min(seconds, left / speed)
                pieces.append(Piece(seconds: piece, speed: speed))
                left -= piece * speed
            }
        }
        return Motion(pieces: pieces)
    }

    /// Steady, with a stop of `stopSeconds` (a traffic light, a drink) at each of `stops`
    /// metres.
    static func stops(_ speed: Double, length: Double, at stops: [Double], stopSeconds: Double) -> Motion {
        var pieces: [Piece] = []
        var from = 0.0
        for stop in stops.sorted() where stop > from && stop < length {
            pieces.append(Piece(seconds: (stop - from) / speed, speed: speed))
            pieces.append(Piece(seconds: stopSeconds, speed: 0))
            from = stop
        }
        pieces.append(Piece(seconds: (length - from) / speed, speed: speed))
        return Motion(pieces: pieces)
    }

    /// About `speed`, swaying by `sway` of it (a sine over `period` seconds, in 5 s steps),
    /// with a stand of `standSeconds` once `standAt` metres are covered.
    static func swaying(
        _ speed: Double, sway: Double = 0.1, period: Double = 240, length: Double, standAt: Double, standSeconds: Double
    ) -> Motion {
        var pieces: [Piece] = []
        var covered = 0.0, elapsed = 0.0, stood = false
        while covered < length {
            let pace = speed * (1 + sway * sin(2 * .pi * elapsed / period))
            let goal = stood || covered >= standAt ? length : standAt
            let seconds = min(5, (goal - covered) / pace)
            pieces.append(Piece(seconds: seconds, speed: pace))
            covered += seconds * pace
            elapsed += seconds
            if !stood, covered >= standAt - 1e-9 {
                pieces.append(Piece(seconds: standSeconds, speed: 0))
                elapsed += standSeconds
                stood = true
            }
        }
        return Motion(pieces: pieces)
    }
}
