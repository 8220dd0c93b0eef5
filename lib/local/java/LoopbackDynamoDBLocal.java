import java.io.InputStream;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts the official DynamoDB Local server, but bound to one address (127.0.0.1) instead of every
 * interface. DynamoDB Local has no option for the listen address: it builds a Jetty
 * {@code new Server(port)}, whose connector binds the wildcard address. This launcher lets
 * DynamoDB Local parse its own command line and build its server, then sets the host (and port)
 * on the Jetty connector before starting it.
 *
 * System properties:
 *   loopback.host  address to bind (default 127.0.0.1)
 *   loopback.port  port to bind, 0 = any free port (default 8000)
 *   loopback.exitOnStdinClose  exit when standard input closes, i.e. when the parent process is
 *                  gone, even after kill -9 (default true)
 *
 * Prints "LOOPBACK_DYNAMODB_LISTENING <host> <port>" once it accepts connections, or
 * "LOOPBACK_DYNAMODB_FAILED <reason>" and exits with status 3.
 */
public final class LoopbackDynamoDBLocal {
  private LoopbackDynamoDBLocal() {}

  public static void main(String[] args) {
    String host = System.getProperty("loopback.host", "127.0.0.1");
    int port = Integer.getInteger("loopback.port", 8000);
    try {
      DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      Server jetty = (Server) field.get(proxy);
      int configured = 0;
      for (Connector connector : jetty.getConnectors()) {
        if (connector instanceof ServerConnector serverConnector) {
          serverConnector.setHost(host);
          serverConnector.setPort(port);
          configured++;
        }
      }
      if (configured == 0) fail("no Jetty connector to bind");
      if (Boolean.parseBoolean(System.getProperty("loopback.exitOnStdinClose", "true"))) exitWhenStdinCloses();
      proxy.start();
      if (!jetty.isStarted()) fail("the server did not start (is port " + port + " in use?)");
      int actual = ((NetworkConnector) jetty.getConnectors()[0]).getLocalPort();
      System.out.println("LOOPBACK_DYNAMODB_LISTENING " + host + " " + actual);
      System.out.flush();
    } catch (Exception e) {
      Throwable cause = e;
      while (cause.getCause() != null) cause = cause.getCause();
      fail(e.getMessage() + (cause != e ? " (" + cause + ")" : ""));
    }
  }

  private static void exitWhenStdinCloses() {
    Thread watcher = new Thread(() -> {
      try {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        while (in.read(buffer) >= 0) {
          // ignore input; only the end of the stream matters
        }
      } catch (Exception ignored) {
        // a broken pipe means the parent is gone too
      }
      System.exit(0);
    }, "exit-when-parent-exits");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static void fail(String reason) {
    System.out.println("LOOPBACK_DYNAMODB_FAILED " + reason);
    System.out.flush();
    System.exit(3);
  }
}
