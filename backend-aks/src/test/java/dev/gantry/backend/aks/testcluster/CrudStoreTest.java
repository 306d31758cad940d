package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A watch being closed while writes go on. Fabric8's CRUD watch, once closed, shuts its sender down and waits for the
 * send in progress before it leaves the set writes send to; a write in between met a sender that refuses work, and
 * the write's request was never answered.
 */
class CrudStoreTest {
    private static final String CONFIG_MAPS = "/api/v1/namespaces/ns/configmaps";

    @Test
    void aWriteWhileAWatchIsBeingClosedIsAnsweredOnceTheWatchIsUnwatchedFirst() throws Exception {
        CrudStore crud = new CrudStore();
        BlockingSocket socket = openWatch(crud);
        WebSocketListener watch = socket.watch;
        Thread closing = closeOnAnotherThread(() -> {
            crud.unwatch(watch);
            watch.onClosed(socket, 1000, "");
        });
        awaitWaiting(closing);
        assertNotNull(crud.insert(CONFIG_MAPS, configMap("during-the-close"), object -> object),
                "a write while the watch is being closed is stored");
        socket.release.countDown();
        closing.join(10_000);
    }

    /** Why {@link CrudStore#unwatch} exists: without it the same write fails inside Fabric8's watch. */
    @Test
    void withoutUnwatchAWriteWhileAWatchIsBeingClosedFailsInsideTheStore() throws Exception {
        CrudStore crud = new CrudStore();
        BlockingSocket socket = openWatch(crud);
        Thread closing = closeOnAnotherThread(() -> socket.watch.onClosed(socket, 1000, ""));
        awaitWaiting(closing);
        assertThrows(RejectedExecutionException.class,
                () -> crud.insert(CONFIG_MAPS, configMap("during-the-close"), object -> object));
        socket.release.countDown();
        closing.join(10_000);
    }

    /** A watch of the config maps whose sender is stuck in the send of a first event until released. */
    private static BlockingSocket openWatch(CrudStore crud) throws InterruptedException {
        RecordedRequest request = new RecordedRequest("HTTP/1.1", HttpMethod.GET, CONFIG_MAPS + "?watch=true",
                Headers.builder().build(), new Buffer());
        MockResponse response = crud.dispatch(request);
        BlockingSocket socket = new BlockingSocket(request, response.getWebSocketListener());
        socket.watch.onOpen(socket, response);
        crud.insert(CONFIG_MAPS, configMap("first"), object -> object);
        assertTrue(socket.sending.await(10, TimeUnit.SECONDS), "the first event is being sent");
        return socket;
    }

    private static Thread closeOnAnotherThread(Runnable close) {
        Thread thread = new Thread(close, "closing-the-watch");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Until the closing thread waits for the stuck send: the sender is shut down by then. */
    private static void awaitWaiting(Thread closing) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closing.getState() != Thread.State.TIMED_WAITING && closing.getState() != Thread.State.TERMINATED) {
            assertTrue(System.nanoTime() < deadline, "the close did not reach its wait: " + closing.getState());
            Thread.sleep(5);
        }
    }

    private static GenericKubernetesResource configMap(String name) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion("v1");
        object.setKind("ConfigMap");
        object.setMetadata(new ObjectMetaBuilder().withName(name).build());
        return object;
    }

    private static final class BlockingSocket implements WebSocket {
        private final RecordedRequest request;
        private final WebSocketListener watch;
        private final CountDownLatch sending = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        BlockingSocket(RecordedRequest request, WebSocketListener watch) {
            this.request = request;
            this.watch = watch;
        }

        @Override
        public RecordedRequest request() {
            return request;
        }

        @Override
        public boolean send(String text) {
            sending.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }

        @Override
        public boolean send(byte[] bytes) {
            return send(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public boolean close(int code, String reason) {
            return true;
        }
    }
}
