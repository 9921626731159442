import ArgumentParser
import VoicemsgServer

/// Where `serve` listens, and with which certificate.
struct ListenOptions: ParsableArguments {
    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = ServerDefaults.configuration.port

    @Option(help: "Address to listen on: 0.0.0.0 takes connections on every interface (phones on the LAN); 127.0.0.1 this machine only.")
    var host: String = ServerDefaults.configuration.host

    @Option(help: ArgumentHelp(
        "PEM certificate (chain) to serve HTTPS with; needs --tls-key.",
        discussion: "Browsers give the microphone to a page on another machine only over HTTPS.",
        valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("HTTPS needs both --tls-cert and --tls-key")
        }
    }

    /// Sets the address, and reads the certificate and key when given: a wrong file is one line
    /// naming the option and the file, before anything starts.
    func apply(to configuration: inout ServerConfiguration) throws {
        configuration.host = host
        configuration.port = port
        if let tlsCert, let tlsKey {
            configuration.tls = try TLSIdentity(certificatePath: tlsCert, keyPath: tlsKey)
        }
    }
}
