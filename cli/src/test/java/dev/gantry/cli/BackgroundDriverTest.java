package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BackgroundDriverTest {
    @Test
    void theDriverGetsThisJvmsOptionsLessADebuggersAgentAndTheHome() {
        List<String> input = List.of("-XX:SharedArchiveFile=/opt/gantry/startup.jsa", "-Xshare:auto",
                "-Djavax.net.ssl.trustStore=/etc/ca.p12", "-Djavax.net.ssl.trustStorePassword=changeit",
                "-Dhttps.proxyHost=proxy.corp", "-Xmx512m", "-Duser.home=/home/someone",
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "-Xdebug",
                "-Xrunjdwp:transport=dt_socket,address=5006");
        assertEquals(List.of("-XX:SharedArchiveFile=/opt/gantry/startup.jsa", "-Xshare:auto",
                "-Djavax.net.ssl.trustStore=/etc/ca.p12", "-Djavax.net.ssl.trustStorePassword=changeit",
                "-Dhttps.proxyHost=proxy.corp", "-Xmx512m"), BackgroundDriver.inheritedJvmOptions(input));
    }
}
