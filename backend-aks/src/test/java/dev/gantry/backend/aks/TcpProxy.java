package dev.gantry.backend.aks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on 127.0.0.1 in front of a test server, for faults between the client and the server: it passes the
 * bytes both ways untouched (TLS goes through end to end, so the client still verifies the server's certificate,
 * which names 127.0.0.1 whatever the port), {@linkplain #cutAll cuts} every open connection, and
 * {@linkplain #refuse refuses} new ones (its port closed, so a connect fails as with a server that is down) until
 * {@linkplain #pass passing} again on the same port.
 */
final class TcpProxy implements AutoCloseable {
    private final InetSocketAddress upstream;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final int port;
    private volatile ServerSocket listener;
    private volatile boolean refusing;

    TcpProxy(String upstreamHost, int upstreamPort) throws IOException {
        this.upstream = new InetSocketAddress(upstreamHost, upstreamPort);
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        accept(listener);
    }

    /** {@code https://127.0.0.1:PORT}, the proxy's address for a kubeconfig. */
    String httpsUrl() {
        return "https://127.0.0.1:" + port;
    }

    /** Closes every connection now open through the proxy, both ways; new ones pass unless refused. */
    synchronized void cutAll() {
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** New connections are refused (the port no longer listens) until {@link #pass}; open ones stay. */
    synchronized void refuse() {
        refusing = true;
        closeQuietly(listener);
    }

    /** Listens again on the same port and passes new connections. */
    synchronized void pass() throws IOException {
        refusing = false;
        if (listener.isClosed()) {
            listener = listen(port);
            accept(listener);
        }
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void accept(ServerSocket server) {
        daemon("tcp-proxy-accept-" + port, () -> {
            while (!server.isClosed()) {
                try {
                    connect(server.accept());
                } catch (IOException e) {
                    return; // the listener was closed: refusing, or the proxy closed
                }
            }
        });
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(upstream, 5_000);
        } catch (IOException e) {
            closeQuietly(client);
            return;
        }
        synchronized (this) {
            if (refusing) { // accepted just before the port closed: refused all the same
                closeQuietly(client);
                closeQuietly(server);
                return;
            }
            open.add(client);
            open.add(server);
        }
        daemon("tcp-proxy-up", () -> pump(client, server));
        daemon("tcp-proxy-down", () -> pump(server, client));
    }

    /** Copies one direction until either side closes; then closes both, as a cut connection is for both ends. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (SocketException e) {
            // Cut or closed by the other side.
        } catch (IOException e) {
            // Likewise: the connection is gone either way.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // Closing for a fault or at the end: nothing to do about a failed close.
        }
    }

    @Override
    public synchronized void close() {
        refuse();
        cutAll();
    }
}
