package dev.backplane.kernel.kb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.testing.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files of a kb ingest: what is read, the slug, front matter, and the fence around a tenant's ingest folder. */
class KbFilesTest {

    @TempDir
    Path tmp;

    @Test
    void slugsComeFromTheRelativePath() {
        assertThat(KbFiles.slug("runbooks/pg-failover.md")).isEqualTo("runbooks-pg-failover");
        assertThat(KbFiles.slug("K8s/CrashLoop BackOff.MD")).isEqualTo("k8s-crashloop-backoff");
        assertThat(KbFiles.slug("Zürich/Ünïcode notes.txt")).isEqualTo("zurich-unicode-notes");
        assertThat(KbFiles.slug("_drafts/vcenter-9.0 snapshot.md")).isEqualTo("drafts-vcenter-9.0-snapshot");
        String deep = "a".repeat(100) + "/" + "b".repeat(100) + ".md";
        assertThat(KbFiles.slug(deep)).hasSize(128).isNotEqualTo(KbFiles.slug("a".repeat(100) + "/" + "b".repeat(99)
                + "c.md"));
    }

    @Test
    void frontMatterBecomesMetadataWithTheSourceAndMayNameTheSlug() throws Exception {
        IngestRoot.Folder root = folder(tmp);
        Path f = Files.writeString(tmp.resolve("a.md"), "---\nkind: runbook\ntags: [db, ha]\nslug: pg-ha\n---\n\n# PG HA\n"
                + "Promote the standby.\n");
        var p = (KbFiles.Prepared.Entry) KbFiles.prepare(root, f, "a.md", "kb/a.md");
        assertThat(p.slug()).isEqualTo("pg-ha");
        assertThat(p.metadata()).isEqualTo(Map.of("kind", "runbook", "tags", List.of("db", "ha"), "source", "kb/a.md"));
        assertThat(p.body()).isEqualTo("# PG HA\nPromote the standby.");
        Path plain = Files.writeString(tmp.resolve("b.txt"), "no front matter here\n");
        assertThat(((KbFiles.Prepared.Entry) KbFiles.prepare(root, plain, "b.txt", "b.txt")).metadata())
                .isEqualTo(Map.of("source", "b.txt"));
    }

    @Test
    void aFileThatCannotBeAnEntryIsAPerFileError() throws Exception {
        IngestRoot.Folder root = folder(tmp);
        assertThat(error(root, "open.md", "---\nkind: x\nno end\n")).contains("not closed");
        assertThat(error(root, "yaml.md", "---\nkind: [x\n---\nbody\n")).contains("not valid YAML");
        assertThat(error(root, "list.md", "---\n- a\n- b\n---\nbody\n")).contains("not a mapping");
        assertThat(error(root, "empty.md", "---\nkind: x\n---\n\n")).contains("empty body");
        assertThat(error(root, "slug.md", "---\nslug: Bad Slug\n---\nbody\n")).contains("not valid");
        Files.write(tmp.resolve("bin.md"), new byte[] {'a', 0, 'b'});
        assertThat(((KbFiles.Prepared.Failed) KbFiles.prepare(root, tmp.resolve("bin.md"), "bin.md", "bin.md")).error())
                .contains("binary");
        Files.write(tmp.resolve("latin1.md"), new byte[] {'c', 'a', 'f', (byte) 0xe9});
        assertThat(((KbFiles.Prepared.Failed) KbFiles.prepare(root, tmp.resolve("latin1.md"), "latin1.md", "x"))
                .error()).contains("UTF-8");
    }

    @Test
    void walkTakesMarkdownAndTextSkipsHiddenAndKeepsSymbolicLinksForTheContainmentCheck() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("kb"));
        Files.createDirectories(dir.resolve("sub"));
        Files.createDirectories(dir.resolve(".git"));
        Files.writeString(dir.resolve("sub/a.md"), "x");
        Files.writeString(dir.resolve("b.markdown"), "x");
        Files.writeString(dir.resolve("c.txt"), "x");
        Files.writeString(dir.resolve("d.png"), "x");
        Files.writeString(dir.resolve(".e.md"), "x");
        Files.writeString(dir.resolve(".git/f.md"), "x");
        Path outside = Files.writeString(TempDirs.file("outside", ".md"), "secret");
        Files.createSymbolicLink(dir.resolve("link.md"), outside);
        assertThat(KbFiles.walk(dir, 100)).extracting(p -> dir.relativize(p).toString())
                .containsExactly("b.markdown", "c.txt", "link.md", "sub/a.md");
        IngestRoot.Folder root = folder(dir);
        assertThat(((KbFiles.Prepared.Failed) KbFiles.prepare(root, dir.resolve("link.md"), "link.md", "link.md"))
                .error()).contains("outside this tenant's kb ingest folder");
        assertThat(KbFiles.walk(dir, 2)).hasSize(3);
    }

    @Test
    void theTenantsFolderFencesEveryRequest() throws Exception {
        UUID tenant = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        Path rootDir = Files.createDirectories(tmp.resolve("import"));
        Path mine = Files.createDirectories(rootDir.resolve(tenant.toString()));
        Files.createDirectories(mine.resolve("runbooks"));
        Path theirs = Files.createDirectories(rootDir.resolve(other.toString()).resolve("b-runbooks"));
        Files.createDirectories(rootDir.resolve("shared"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(mine.resolve("escape"), elsewhere);
        Files.createSymbolicLink(mine.resolve("next-door"), theirs);
        IngestRoot root = IngestRoot.fromSetting(rootDir.toString(), tmp);
        assertThat(IngestRoot.folderName(tenant)).isEqualTo(tenant.toString());
        assertThat(code(root, tenant, "runbooks")).isEqualTo("resolved");
        assertThat(root.folder(tenant).resolve("runbooks")).isEqualTo(mine.resolve("runbooks").toRealPath());
        assertThat(root.folder(tenant).resolve(mine.resolve("runbooks").toString()))
                .isEqualTo(mine.resolve("runbooks").toRealPath());
        assertThat(code(root, tenant, "../elsewhere")).isEqualTo("directory_outside_ingest_root");
        assertThat(code(root, tenant, "runbooks/../../elsewhere")).isEqualTo("directory_outside_ingest_root");
        assertThat(code(root, tenant, "../" + other + "/b-runbooks")).isEqualTo("directory_outside_ingest_root");
        assertThat(code(root, tenant, elsewhere.toString())).isEqualTo("directory_outside_ingest_root");
        assertThat(code(root, tenant, "escape")).isEqualTo("directory_outside_ingest_root");
        assertThat(code(root, tenant, "next-door")).as("a link into another tenant's folder")
                .isEqualTo("directory_outside_ingest_root");
        assertThat(code(root, tenant, "missing")).isEqualTo("directory_not_found");
        assertThat(code(root, tenant, " ")).isEqualTo("invalid_directory");
        // another tenant's directory, the root itself or a folder at the root's top: exactly like a missing one
        for (Path foreign : List.of(theirs, rootDir.resolve(other.toString()), rootDir, rootDir.resolve("shared"),
                rootDir.resolve(other.toString()).resolve("never-staged"))) {
            DomainException e = error(root, tenant, foreign.toString());
            DomainException missing = error(root, tenant, mine.resolve("missing").toString());
            assertThat(e.code()).as(foreign.toString()).isEqualTo("directory_not_found");
            assertThat(e.getMessage()).as(foreign.toString())
                    .isEqualTo(missing.getMessage().replace(mine.resolve("missing").toString(), foreign.toString()));
            assertThat(e.extras()).as(foreign.toString()).isEqualTo(missing.extras());
        }
        assertThat(code(root, other, "b-runbooks")).as("the owner reads it").isEqualTo("resolved");
        assertThat(code(root, UUID.randomUUID(), "b-runbooks")).as("a tenant with no folder yet")
                .isEqualTo("ingest_root_missing");
        assertThat(code(IngestRoot.fromSetting("off", tmp), tenant, "runbooks")).isEqualTo("kb_ingest_disabled");
        assertThat(code(IngestRoot.fromSetting("", tmp.resolve("no-data")), tenant, "x")).isEqualTo("ingest_root_missing");
        assertThat(IngestRoot.fromSetting("", tmp).path()).contains(tmp.resolve("kb-import").toAbsolutePath());
    }

    private static IngestRoot.Folder folder(Path dir) {
        return new IngestRoot.Folder(dir.getParent(), dir);
    }

    private static String code(IngestRoot root, UUID tenant, String dir) {
        try {
            root.folder(tenant).resolve(dir);
            return "resolved";
        } catch (DomainException e) {
            return e.code();
        }
    }

    private static DomainException error(IngestRoot root, UUID tenant, String dir) {
        try {
            root.folder(tenant).resolve(dir);
        } catch (DomainException e) {
            return e;
        }
        throw new AssertionError(dir + " resolved");
    }

    private String error(IngestRoot.Folder root, String name, String text) throws Exception {
        Path f = Files.writeString(tmp.resolve(name), text);
        var p = KbFiles.prepare(root, f, name, name);
        assertThat(p).isInstanceOf(KbFiles.Prepared.Failed.class);
        return ((KbFiles.Prepared.Failed) p).error();
    }
}
