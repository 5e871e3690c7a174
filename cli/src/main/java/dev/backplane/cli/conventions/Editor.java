package dev.backplane.cli.conventions;

import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Opens a text in the user's editor, as {@code kubectl edit} and {@code git commit} do: {@code $EDITOR},
 * else {@code $VISUAL}, else {@code vi}, on a temporary file only the user can read (removed afterwards),
 * with the terminal handed over. The variable may carry arguments ({@code code --wait}).
 */
final class Editor {

    private Editor() {
    }

    /** The text as the editor left it; a failing editor is a failed command (nothing is sent). */
    static String edit(CliContext ctx, String name, String text) {
        String command = ctx.env("EDITOR").or(() -> ctx.env("VISUAL")).orElse("vi").strip();
        Path file = null;
        try {
            file = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? Files.createTempFile("svc-" + name + "-", ".md",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile("svc-" + name + "-", ".md");
            Files.writeString(file, text.endsWith("\n") ? text : text + "\n");
            List<String> cmd = new ArrayList<>(Arrays.asList(command.split("\\s+")));
            cmd.add(file.toString());
            int code = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            if (code != 0) {
                throw CliException.failed("the editor (" + command + ") exited with " + code + "; nothing sent");
            }
            return Files.readString(file);
        } catch (IOException e) {
            throw CliException.failed("cannot run the editor (" + command + "; set EDITOR): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted while waiting for the editor; nothing sent");
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    /** Saves an edit whose write was refused, so the user can fix and resend it; answers the file. */
    static Path keep(CliContext ctx, String name, String text) {
        try {
            Path file = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? Files.createTempFile("svc-" + name + "-kept-", ".md",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile("svc-" + name + "-kept-", ".md");
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw CliException.failed("the write was refused and the edit could not be kept: " + e.getMessage());
        }
    }
}
