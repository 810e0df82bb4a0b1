package io.taskq.postgres.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder from a local port to a server, for tests that take a server away mid-run: {@link
 * #stop()} closes the listening port and every forwarded connection, so clients see their
 * connections reset and reconnects refused, as when the server goes down.
 */
public final class TcpProxy implements AutoCloseable {
  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean stopped;

  private TcpProxy(String targetHost, int targetPort) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    Thread accept = new Thread(this::accept, "tcp-proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** A proxy to the host and port of {@code url} (a {@code redis://host:port} URL, say). */
  public static TcpProxy to(String url) throws IOException {
    URI uri = URI.create(url);
    return new TcpProxy(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
  }

  /** {@code redis://127.0.0.1:<the proxy's port>}. */
  public String redisUrl() {
    return "redis://127.0.0.1:" + server.getLocalPort();
  }

  private void accept() {
    while (!stopped) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        if (stopped) {
          return;
        }
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // the connection ended
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "tcp-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  /** Takes the server away: the port closes and every forwarded connection is cut. */
  public void stop() {
    stopped = true;
    closeQuietly(server);
    sockets.forEach(TcpProxy::closeQuietly);
  }

  @Override
  public void close() {
    stop();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
