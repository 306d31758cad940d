package dev.gantry.ssh.internal;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpException;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HexFormat;

/** File transfer over SFTP, one channel per transfer. Remote writes are atomic: temp file, permissions, rename. */
public final class FileTransfer {

    private static final SecureRandom RANDOM = new SecureRandom();

    private FileTransfer() {
    }

    /**
     * Writes {@code content} to {@code remotePath} with permissions {@code mode}. Readers see the old file or the
     * whole new one, never a part; the permissions are set before any content is written, so a 0600 secret is never
     * readable by others, not even briefly.
     */
    public static void write(TargetConnection connection, String remotePath, InputStream content, int mode) {
        checkMode(mode);
        String temp = tempNameFor(remotePath);
        ChannelSftp sftp = Channels.open(connection, "sftp", (ChannelSftp c) -> { });
        try {
            sftp.put(new ByteArrayInputStream(new byte[0]), temp, ChannelSftp.OVERWRITE);
            sftp.chmod(mode, temp);
            sftp.put(content, temp, ChannelSftp.OVERWRITE);
            // posix-rename@openssh.com where the server has it, so an existing file is replaced in one step.
            sftp.rename(temp, remotePath);
        } catch (SftpException e) {
            removeQuietly(sftp, temp);
            throw failure(connection, "write", remotePath, e);
        } finally {
            Channels.close(connection, sftp);
        }
    }

    public static byte[] read(TargetConnection connection, String remotePath) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        read(connection, remotePath, content);
        return content.toByteArray();
    }

    public static void read(TargetConnection connection, String remotePath, OutputStream content) {
        ChannelSftp sftp = Channels.open(connection, "sftp", (ChannelSftp c) -> { });
        try {
            sftp.get(remotePath, content);
        } catch (SftpException e) {
            throw failure(connection, "read", remotePath, e);
        } finally {
            Channels.close(connection, sftp);
        }
    }

    /** Downloads into a temp file beside {@code local}, then moves it into place. */
    public static void download(TargetConnection connection, String remotePath, Path local) {
        Path absolute = local.toAbsolutePath();
        Path temp;
        try {
            temp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".part");
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot create a file beside " + local + ": " + e, e);
        }
        try {
            try (OutputStream out = Files.newOutputStream(temp)) {
                read(connection, remotePath, out);
            }
            Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot write " + local + " while downloading "
                    + remotePath + ": " + e, e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // Only a leftover .part file.
            }
        }
    }

    static String tempNameFor(String remotePath) {
        if (remotePath.isEmpty() || remotePath.endsWith("/")) {
            throw new IllegalArgumentException("remote path must name a file, got '" + remotePath + "'");
        }
        int slash = remotePath.lastIndexOf('/');
        String dir = remotePath.substring(0, slash + 1);
        String name = remotePath.substring(slash + 1);
        byte[] suffix = new byte[6];
        RANDOM.nextBytes(suffix);
        return dir + "." + name + ".gantry-" + HexFormat.of().formatHex(suffix);
    }

    private static void checkMode(int mode) {
        if (mode < 0 || mode > 07777) {
            throw new IllegalArgumentException("mode must be a permission value 0..07777 (e.g. 0600), got 0"
                    + Integer.toOctalString(mode));
        }
    }

    private static void removeQuietly(ChannelSftp sftp, String path) {
        try {
            sftp.rm(path);
        } catch (SftpException ignored) {
            // The temp file may not exist; nothing more to clean.
        }
    }

    private static GantryException failure(TargetConnection connection, String action, String remotePath,
                                           SftpException e) {
        if (interrupted(e)) {
            // JSch turns an interrupt of its pipe read into an SFTP failure and the flag is gone: give it back.
            Thread.currentThread().interrupt();
            return new GantryException(ErrorCode.REMOTE_ERROR, "interrupted during the SFTP " + action + " of "
                    + remotePath + " on " + connection.target().host() + ":" + connection.target().port(), e);
        }
        return new GantryException(ErrorCode.REMOTE_ERROR, "cannot " + action + " " + remotePath + " on "
                + connection.target().host() + ":" + connection.target().port() + " over SFTP: " + e.getMessage()
                + " (SFTP status " + e.id + ")", e);
    }

    private static boolean interrupted(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException || cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }
}
