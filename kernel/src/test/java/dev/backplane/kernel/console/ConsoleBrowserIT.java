package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackSmtp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser: Debian's Chromium driven headless through the system chromedriver
 * (no browser download), a real Keycloak and its own login page, a real kernel on PostgreSQL. Flows:
 * sign in, kb search/add/delete, review and enable a connector's reads, a read_only user's refusal, an
 * XSS corpus in kb bodies and connector descriptions rendered inert, CSRF-less POSTs refused, sign out.
 * Skips (with the reason) where Chromium is not installed ({@code bin/test-deps.sh} installs it).
 */
class ConsoleBrowserIT {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String REALM = "svc";
    static final UUID TENANT = UUID.randomUUID();
    static final UUID OTHER_TENANT = UUID.randomUUID();
    /** The approvals flow's own tenant: its connector is enabled there without touching the other tests' tenant. */
    static final UUID APPROVALS_TENANT = UUID.randomUUID();
    static final String PASSWORD = "pw-" + UUID.randomUUID();
    static final String CONNECTOR = "demo-2.x";
    static final String AXE_VERSION = "4.14.1";
    /** Markup that must show as text: each one would set window.__xss if the browser ran it. */
    static final List<String> XSS = List.of(
            "<script>window.__xss='script'</script>",
            "<img src=x onerror=\"window.__xss='img'\">",
            "<svg onload=\"window.__xss='svg'\"></svg>",
            "<iframe src=\"javascript:window.__xss='iframe'\"></iframe>",
            "[click me](javascript:window.__xss='link')",
            "![pic](javascript:window.__xss='image')",
            "\"><b onmouseover=\"window.__xss='attr'\">bold</b>");

    static final List<String> TARGET_HITS = new java.util.concurrent.CopyOnWriteArrayList<>();
    static final Pattern DEVICE_URL = Pattern.compile("(http://\\S+/device\\?user_code=\\S+)");
    static final String TARGET_PASSWORD = "target-pw-" + UUID.randomUUID();
    static com.sun.net.httpserver.HttpServer target;
    static ScriptedModel model;
    static LoopbackSmtp smtp;
    static Path work;
    static KeycloakServer keycloak;
    static TestKernel kernel;
    static Path screenshots = Path.of("target", "console-screenshots");
    WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium and chromedriver are not installed (Debian packages chromium, chromium-driver; "
                        + "bin/test-deps.sh installs them): the console browser tests skip");
        work = TempDirs.create("svc-console");
        keycloak = KeycloakServer.start(work);
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("demo", "2.x").operations(6).httpProbe(false)
                .describeWith("\" " + javaLiteral(String.join(" ", XSS)) + "\""));
        smtp = LoopbackSmtp.start();
        model = new ScriptedModel();
        target = LoopbackHttp.start(x -> {
            TARGET_HITS.add(x.getRequestMethod() + " " + x.getRequestURI().getPath());
            LoopbackHttp.answer(x, 200, "1.0");
        });
        Map<String, String> settings = new java.util.LinkedHashMap<>(smtp.settings());
        settings.putAll(Map.ofEntries(
                Map.entry("SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/" + REALM),
                Map.entry("SVC_PLUGIN_DIR", plugins.toString()),
                Map.entry("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8"),
                Map.entry("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl()),
                // specs over 1,000 bytes are ingested in a background job: the console's job page is exercised
                Map.entry("SVC_INGEST_SYNC_MAX_BYTES", "1000")));
        kernel = TestKernel.start(work.resolve("kernel"), settings);
        CliRunner admin = new CliRunner(work.resolve("admin-config"))
                .env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword())
                .env("SVC_BOOTSTRAP_USER_PASSWORD", PASSWORD);
        for (String[] user : List.of(new String[] {"alice", "tenant_admin", TENANT.toString()},
                new String[] {"dave", "read_only", TENANT.toString()},
                new String[] {"carol", "tenant_admin", APPROVALS_TENANT.toString()},
                new String[] {"bob", "tenant_admin", APPROVALS_TENANT.toString()},
                new String[] {"rita", "read_only", APPROVALS_TENANT.toString()},
                new String[] {"erin", "tenant_admin", OTHER_TENANT.toString()},
                new String[] {"paula", "read_only", TENANT.toString()})) {
            CliRunner.Result r = admin.run("admin", "idp", "bootstrap-clients", "--keycloak-base-url", keycloak.url(),
                    "--realm", REALM, "--console-url", kernel.url(), "--admin-user-username", user[0],
                    "--tenant-id", user[2], "--tenant-role", user[1]);
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
        // paula is a platform_admin (set directly in Keycloak; bootstrap provisions tenant users only)
        String paulaId = keycloak.adminJson("/" + REALM + "/users?exact=true&username=paula").get(0).path("id").asText();
        var paula = (com.fasterxml.jackson.databind.node.ObjectNode) keycloak.adminJson("/" + REALM + "/users/" + paulaId);
        paula.withObjectProperty("attributes").putArray("platform_admin").add("true");
        assertThat(keycloak.admin("PUT", "/" + REALM + "/users/" + paulaId, paula).statusCode()).isEqualTo(204);
        Files.createDirectories(screenshots);
    }

    @AfterAll
    static void stop() {
        if (target != null) {
            target.stop(0);
        }
        Fixtures.closeAll(kernel, keycloak, model, smtp);
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    private static String javaLiteral(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private WebDriver newBrowser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--disable-gpu");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return browser;
    }

    private WebDriver signIn(String user, String page) {
        return signIn(user, TENANT, page);
    }

    /** Opens {@code page}, signs in on Keycloak's own login form, and waits to be back on the console. */
    private WebDriver signIn(String user, UUID tenant, String page) {
        WebDriver b = newBrowser();
        b.get(kernel.url() + page);
        WebDriverWait wait = new WebDriverWait(b, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("kc-form-login")));
        assertThat(b.getCurrentUrl()).as("the login page is Keycloak's").startsWith(keycloak.url());
        b.findElement(By.id("username")).sendKeys(user);
        b.findElement(By.id("password")).sendKeys(PASSWORD);
        b.findElement(By.id("kc-login")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("who")));
        assertThat(b.getCurrentUrl()).startsWith(kernel.url() + page);
        assertThat(b.findElement(By.id("who")).getText()).contains(user).contains(tenant.toString());
        return b;
    }

    /** The text of element {@code id}, read again if a live update swapped it meanwhile. */
    private static String text(WebDriver b, String id) {
        return new WebDriverWait(b, Duration.ofSeconds(10))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> d.findElement(By.id(id)).getText());
    }

    /** On a page with live parts: waits until its live stream is open and the catch-up fetch has been applied. */
    private static void awaitLive(WebDriver b) {
        if (!b.findElements(By.cssSelector("[data-live]")).isEmpty()) {
            new WebDriverWait(b, Duration.ofSeconds(20)).until(d -> "true".equals(d.findElement(By.tagName("body"))
                    .getAttribute("data-live-open")));
        }
    }

    /**
     * Clicks a link or submit button and waits until the browser has left the page and the next one has
     * loaded: a click does not always wait for the navigation it starts, so reading the next page at once races.
     */
    private static void navigate(WebDriver b, By target) {
        WebElement page = b.findElement(By.tagName("html"));
        b.findElement(target).click();
        WebDriverWait wait = new WebDriverWait(b, Duration.ofSeconds(30));
        wait.until(d -> {
            try {
                page.isEnabled();
                return false;
            } catch (org.openqa.selenium.WebDriverException gone) {
                return true; // stale, or Chromium's "node does not belong to the document": the old page is gone
            }
        });
        wait.until(d -> "complete".equals(((JavascriptExecutor) d).executeScript("return document.readyState")));
    }

    /** Waits for the navigation a submit started (a 303 redirect) to land on a URL containing {@code part}. */
    private static void awaitUrl(WebDriver b, String part) {
        new WebDriverWait(b, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains(part));
    }

    /** The text of element {@code id} once it satisfies {@code expected} (a submit may still be navigating). */
    private static String awaitText(WebDriver b, String id, java.util.function.Predicate<String> expected) {
        return new WebDriverWait(b, Duration.ofSeconds(20))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .ignoring(org.openqa.selenium.NoSuchElementException.class)
                .until(d -> {
                    String t = d.findElement(By.id(id)).getText();
                    return expected.test(t) ? t : null;
                });
    }

    private void assertNoScriptRan(WebDriver b) {
        Object marker = ((JavascriptExecutor) b).executeScript("return window.__xss === undefined ? null : window.__xss;");
        assertThat(marker).as("injected markup ran in the page").isNull();
    }

    private void screenshot(WebDriver b, String name) throws Exception {
        Files.write(screenshots.resolve(name), ((TakesScreenshot) b).getScreenshotAs(OutputType.BYTES));
    }

    @Test
    void aTenantAdminSignsInAddsSearchesAndDeletesAKbEntry() throws Exception {
        WebDriver b = signIn("alice", "/ui/kb");
        Cookie session = b.manage().getCookieNamed(ConsoleRoutes.COOKIE);
        assertThat(session.isHttpOnly()).isTrue();
        assertThat(session.getSameSite()).isEqualTo("Lax");
        assertThat(session.getPath()).isEqualTo("/ui");

        navigate(b, By.id("add-entry"));
        b.findElement(By.id("slug")).sendKeys("restart-ingress");
        b.findElement(By.id("body")).sendKeys("# Restarting the ingress\n\nDrain the node first, then roll the "
                + "**ingress controller** pods one by one.");
        b.findElement(By.id("entry-metadata")).sendKeys("kind=runbook,team=edge");
        navigate(b, By.id("save-entry"));
        awaitUrl(b, "/ui/kb/entry/restart-ingress");
        assertThat(b.findElement(By.cssSelector("#entry-body h1")).getText()).isEqualTo("Restarting the ingress");
        assertThat(b.findElement(By.cssSelector("#entry-body strong")).getText()).isEqualTo("ingress controller");

        b.get(kernel.url() + "/ui/kb");
        b.findElement(By.id("q")).sendKeys("how do I roll the ingress controller");
        b.findElement(By.id("metadata")).sendKeys("kind=runbook");
        navigate(b, By.cssSelector("form[role=search] button"));
        WebElement hits = b.findElement(By.id("hits"));
        assertThat(hits.getText()).contains("restart-ingress").contains("score");
        assertThat(hits.findElement(By.cssSelector(".snippet")).getText()).containsIgnoringCase("ingress");
        screenshot(b, "console-kb.png");

        b.findElement(By.id("q")).clear();
        b.findElement(By.id("metadata")).clear();
        b.findElement(By.id("metadata")).sendKeys("kind");
        b.findElement(By.id("q")).sendKeys("ingress");
        navigate(b, By.cssSelector("form[role=search] button"));
        assertThat(text(b, "error-code")).as("a malformed filter is the envelope's code, not a 500")
                .isEqualTo("invalid_query");
        assertThat(text(b, "error")).contains("key=value");

        b.get(kernel.url() + "/ui/kb/entry/restart-ingress");
        navigate(b, By.id("delete-entry"));
        assertThat(b.findElement(By.tagName("h1")).getText()).contains("Delete kb entry restart-ingress?");
        assertThat(kbEntries()).as("nothing is deleted before the confirmation").contains("restart-ingress");
        navigate(b, By.id("confirm"));
        new WebDriverWait(b, Duration.ofSeconds(20)).until(ExpectedConditions.urlMatches("/ui/kb$"));
        assertThat(kbEntries()).doesNotContain("restart-ingress");
        assertThat(auditOps()).contains("svc.governance.POST /api/v1/kb", "svc.governance.DELETE /api/v1/kb/{slug}");

        b.get(kernel.url() + "/ui/kb/entry/restart-ingress");
        assertThat(text(b, "error-code")).isEqualTo("kb_entry_not_found");
    }

    @Test
    void aTenantAdminReviewsAndEnablesAConnectorsReads() throws Exception {
        WebDriver b = signIn("alice", "/ui/connectors");
        assertThat(b.findElement(By.id("connectors")).getText()).contains(CONNECTOR).contains("staged");
        navigate(b, By.linkText(CONNECTOR));
        assertThat(text(b, "connector-status")).isEqualTo("staged");
        assertThat(text(b, "enabled-count")).isEqualTo("0");
        assertThat(b.findElement(By.id("groups")).getText()).contains("items").contains("admin");

        b.findElement(By.id("op-query")).sendKeys("list every item");
        navigate(b, By.cssSelector("form[role=search] button"));
        assertThat(b.findElement(By.id("op-hits")).getText()).contains("demo.item0.list");

        navigate(b, By.id("enable-reads"));
        assertThat(b.findElement(By.tagName("h1")).getText()).startsWith("Enable reads " + CONNECTOR + "?");
        assertThat(connectorOverrides()).as("nothing changes before the confirmation").isZero();
        navigate(b, By.id("confirm"));
        assertThat(text(b, "notice")).isNotBlank();
        assertThat(text(b, "enabled-count")).isEqualTo("4");
        assertThat(text(b, "connector-status")).as("enable-reads leaves the status").isEqualTo("staged");
        assertThat(auditOps()).contains("svc.governance.POST /api/v1/connectors/{connector_id}/enable-reads");
        assertThat(text(b, "trail")).contains("POST /api/v1/connectors/{connector_id}/enable-reads");
        screenshot(b, "console-connectors.png");

        b.get(kernel.url() + "/ui/connectors/" + CONNECTOR + "/operations/demo.item1.get");
        new org.openqa.selenium.support.ui.Select(b.findElement(By.id("requires_approval"))).selectByValue("true");
        navigate(b, By.id("save-op"));
        assertThat(text(b, "notice")).contains("Saved the overrides of demo.item1.get");
        assertThat(b.findElement(By.xpath("//table[@id='operations']//tr[td/code='demo.item1.get']")).getText())
                .contains("required")
                // why it has its class: the plugin declared it, and an admin has changed it since
                .contains("read").contains("set by an admin (edit-op); the connector's: declared by the plugin");
        assertThat(text(b, "trail")).contains("PATCH /api/v1/connectors/{connector_id}/operations/{op_id}")
                .contains("demo.item1.get");
        assertThat(kernel.jdbc().queryOne("SELECT requires_approval, safety_level, is_enabled FROM "
                        + "catalog_operation_overrides WHERE tenant_id = ? AND connector_id = ? AND op_id = ?",
                rs -> rs.getObject(1) + "/" + rs.getObject(2) + "/" + rs.getObject(3), TENANT, CONNECTOR,
                "demo.item1.get")).as("only the changed field becomes an override").hasValue("true/null/true");

        b.get(kernel.url() + "/ui/connectors/" + CONNECTOR + "/operations/demo.item1.get");
        navigate(b, By.id("save-op"));
        assertThat(text(b, "notice")).startsWith("No change");
    }

    @Test
    void aReadOnlyUserSeesButIsRefusedChanges() {
        WebDriver b = signIn("dave", "/ui/connectors/" + CONNECTOR);
        assertThat(b.findElements(By.id("enable-reads"))).as("no change links for read_only").isEmpty();
        b.get(kernel.url() + "/ui/connectors/" + CONNECTOR + "/enable-reads");
        assertThat(text(b, "error-code")).isEqualTo("insufficient_role");
        assertThat(text(b, "error")).contains("tenant_admin");
        b.get(kernel.url() + "/ui/kb/new");
        assertThat(text(b, "error-code")).isEqualTo("insufficient_role");
        b.get(kernel.url() + "/ui/kb");
        assertThat(b.findElements(By.id("add-entry"))).isEmpty();
    }

    @Test
    void anotherTenantsUserDoesNotSeeTheEntry() {
        WebDriver a = signIn("alice", "/ui/kb/new");
        a.findElement(By.id("slug")).sendKeys("tenant-a-only");
        a.findElement(By.id("body")).sendKeys("the tenant A vault unseal procedure");
        navigate(a, By.id("save-entry"));
        awaitUrl(a, "/ui/kb/entry/tenant-a-only");
        a.quit();

        WebDriver b = signIn("erin", OTHER_TENANT, "/ui/kb/entry/tenant-a-only");
        assertThat(text(b, "error-code")).isEqualTo("kb_entry_not_found");
        b.get(kernel.url() + "/ui/kb?q=vault+unseal+procedure");
        assertThat(b.getPageSource()).doesNotContain("tenant-a-only");
        b.get(kernel.url() + "/ui/kb");
        assertThat(b.getPageSource()).doesNotContain("tenant-a-only");
        b.get(kernel.url() + "/ui/kb/entry/tenant-a-only/delete");
        assertThat(text(b, "error-code")).isEqualTo("kb_entry_not_found");
        assertThat(kbEntries()).contains("tenant-a-only");
    }

    @Test
    void markupInKbBodiesAndConnectorDescriptionsRendersAsText() {
        WebDriver b = signIn("alice", "/ui/kb/new");
        b.findElement(By.id("slug")).sendKeys("xss-corpus");
        ((JavascriptExecutor) b).executeScript("document.getElementById('body').value = arguments[0];",
                String.join("\n\n", XSS));
        navigate(b, By.id("save-entry"));
        awaitUrl(b, "/ui/kb/entry/xss-corpus");
        WebElement body = b.findElement(By.id("entry-body"));
        assertNoScriptRan(b);
        assertThat(body.findElements(By.cssSelector("script, svg, iframe, b, [onerror], [onload], [onmouseover]")))
                .as("no element was made from the body's raw HTML").isEmpty();
        for (WebElement a : body.findElements(By.cssSelector("a, img"))) {
            assertThat(a.getAttribute(a.getTagName().equals("a") ? "href" : "src")).as("Markdown link and image URLs "
                    + "are sanitised").doesNotContainIgnoringCase("javascript:");
        }
        assertThat(body.getText()).contains("<script>window.__xss='script'</script>").contains("<img src=x onerror=");

        b.get(kernel.url() + "/ui/connectors/" + CONNECTOR);
        assertNoScriptRan(b);
        WebElement ops = b.findElement(By.id("operations"));
        assertThat(ops.findElements(By.cssSelector("script, img, svg, iframe, b"))).isEmpty();
        assertThat(ops.getText()).contains("<script>window.__xss='script'</script>");
    }

    @Test
    void postsWithoutTheSessionsCsrfTokenAreRefused() throws Exception {
        WebDriver b = signIn("alice", "/ui/connectors/" + CONNECTOR);
        String cookie = ConsoleRoutes.COOKIE + "=" + b.manage().getCookieNamed(ConsoleRoutes.COOKIE).getValue();
        String statusBefore = text(b, "connector-status");
        try (HttpClient http = HttpClient.newHttpClient()) {
            for (String form : List.of("", "_csrf=forged", "_csrf=")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/connectors/"
                                + CONNECTOR + "/enable")).header("Cookie", cookie)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(form).isEqualTo(403);
                assertThat(r.body()).contains("csrf_token_invalid").doesNotContain("Exception");
            }
            HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/kb"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("slug=x&body=y")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
        }
        b.navigate().refresh();
        assertThat(text(b, "connector-status")).isEqualTo(statusBefore);

        // signing out goes on to Keycloak's logout (end_session_endpoint with id_token_hint), which ends its session
        navigate(b, By.id("sign-out"));
        awaitUrl(b, keycloak.url() + "/realms/" + REALM + "/protocol/openid-connect/logout");
        assertThat(b.getPageSource().toLowerCase(java.util.Locale.ROOT)).contains("logged out");
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> after = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/kb"))
                    .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(after.statusCode()).as("the old cookie no longer opens a page").isEqualTo(302);
            assertThat(after.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).startsWith("/ui/login"));
        }
    }

    @Test
    void aTenantAdminIngestsAnUploadedSpecAndWatchesTheJob() throws Exception {
        Path spec = work.resolve("shop-openapi.json");
        Files.writeString(spec, dev.backplane.kernel.catalog.SpecIngestIT.spec("Shop", "2.0", 2));
        assertThat(Files.size(spec)).as("big enough to run as a job").isGreaterThan(1000);
        WebDriver b = signIn("alice", "/ui/connectors");
        navigate(b, By.id("ingest-spec"));

        navigate(b, By.id("ingest"));
        assertThat(text(b, "form-error")).as("neither a catalog entry nor a spec").isNotBlank();

        fillIngest(b, spec, true);
        assertThat(b.findElement(By.tagName("h1")).getText()).isEqualTo("Dry run: nothing was written");
        assertThat(text(b, "ingest-operation_count")).isEqualTo("6");
        assertThat(b.findElements(By.id("review-connector"))).isEmpty();

        b.get(kernel.url() + "/ui/ingest");
        fillIngest(b, spec, false);
        awaitUrl(b, "/ui/ingest/jobs/");
        new WebDriverWait(b, Duration.ofSeconds(90)).until(d -> !d.findElements(By.id("review-connector")).isEmpty());
        assertThat(text(b, "ingest-status")).contains("succeeded");
        navigate(b, By.id("review-connector"));
        assertThat(b.findElement(By.tagName("h1")).getText()).isEqualTo("shop-2.x");
        assertThat(text(b, "connector-status")).isEqualTo("staged");
        assertThat(text(b, "enabled-count")).as("ingested operations ship default-deny").isEqualTo("0");
        assertThat(auditOps()).contains("svc.governance.POST /api/v1/connectors/ingest");
    }

    private static void fillIngest(WebDriver b, Path spec, boolean dryRun) {
        b.findElement(By.id("product")).sendKeys("shop");
        b.findElement(By.id("version")).sendKeys("2.x");
        b.findElement(By.id("impl")).sendKeys("shop");
        b.findElement(By.id("spec")).sendKeys(spec.toAbsolutePath().toString());
        if (b.findElement(By.id("dry_run")).isSelected() != dryRun) {
            b.findElement(By.id("dry_run")).click();
        }
        navigate(b, By.id("ingest"));
    }

    @Test
    void aTenantAdminIngestsADirectoryIntoTheKbAndFollowsTheJob() throws Exception {
        // svc kb ingest reads the acting tenant's folder of the ingest root only: <root>/<tenant-id>/
        Path dir = Files.createDirectories(kernel.dataDir().resolve("kb-import").resolve(TENANT.toString())
                .resolve("console-runbooks"));
        Files.writeString(dir.resolve("rotate-certs.md"), "# Rotate certificates\n\nRenew the wildcard certificate.");
        Files.writeString(dir.resolve("drain-node.md"), "# Drain a node\n\nCordon it, then drain with a grace period.");
        WebDriver b = signIn("alice", "/ui/kb");
        navigate(b, By.id("kb-ingest-link"));
        b.findElement(By.id("directory")).sendKeys("no-such-directory");
        navigate(b, By.id("kb-ingest"));
        assertThat(awaitText(b, "form-error", t -> !t.isBlank())).contains("no-such-directory");

        b.findElement(By.id("directory")).clear();
        b.findElement(By.id("directory")).sendKeys("console-runbooks");
        b.findElement(By.id("dry_run")).click();
        navigate(b, By.id("kb-ingest"));
        assertThat(awaitText(b, "ingest-status", t -> !t.isBlank())).contains("rotate-certs").contains("drain-node");
        assertThat(b.findElement(By.tagName("h1")).getText()).isEqualTo("Dry run: nothing was written");
        assertThat(kbEntries()).noneMatch(slug -> slug.contains("rotate-certs"));

        b.get(kernel.url() + "/ui/kb/ingest");
        b.findElement(By.id("directory")).sendKeys("console-runbooks");
        navigate(b, By.id("kb-ingest"));
        awaitUrl(b, "/ui/kb/ingest-jobs/");
        new WebDriverWait(b, Duration.ofSeconds(90)).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> d.findElements(By.id("running")).isEmpty()
                        && d.findElement(By.tagName("h1")).getText().endsWith("succeeded"));
        assertThat(kbEntries()).anyMatch(slug -> slug.contains("rotate-certs")).anyMatch(slug -> slug.contains("drain-node"));
        assertThat(auditOps()).contains("svc.governance.POST /api/v1/kb/ingest");
    }

    @Test
    void anotherTenantsAdminCannotIngestAStagedDirectoryOfThisTenant() throws Exception {
        Path dir = Files.createDirectories(kernel.dataDir().resolve("kb-import").resolve(TENANT.toString())
                .resolve("alice-only"));
        Files.writeString(dir.resolve("unseal.md"), "# Unseal\n\nThe tenant A vault unseal keys live in the safe.");
        Files.createDirectories(kernel.dataDir().resolve("kb-import").resolve(OTHER_TENANT.toString()));
        WebDriver b = signIn("erin", OTHER_TENANT, "/ui/kb/ingest");
        String missing = kernel.dataDir().resolve("kb-import").resolve(OTHER_TENANT.toString()).resolve("never-staged")
                .toAbsolutePath().normalize().toString();
        for (String asked : List.of(dir.toAbsolutePath().normalize().toString(), "alice-only")) {
            for (boolean dryRun : List.of(true, false)) {
                b.get(kernel.url() + "/ui/kb/ingest");
                b.findElement(By.id("directory")).sendKeys(asked);
                if (dryRun) {
                    b.findElement(By.id("dry_run")).click();
                }
                navigate(b, By.id("kb-ingest"));
                String error = awaitText(b, "form-error", t -> !t.isBlank());
                assertThat(error).as(asked).startsWith("no directory ").doesNotContain("unseal");
                if (asked.startsWith("/")) {
                    // word for word what a directory that is not there answers
                    b.get(kernel.url() + "/ui/kb/ingest");
                    b.findElement(By.id("directory")).sendKeys(missing);
                    navigate(b, By.id("kb-ingest"));
                    assertThat(error).isEqualTo(awaitText(b, "form-error", t -> !t.isBlank()).replace(missing, asked));
                }
            }
        }
        assertThat(kernel.jdbc().query("SELECT slug FROM kb_entries WHERE tenant_id = ?", rs -> rs.getString(1),
                OTHER_TENANT)).as("nothing of tenant A reached B's kb").noneMatch(slug -> slug.contains("unseal"));
    }

    @Test
    void aPlatformAdminSwitchesTenant() {
        signIn("erin", OTHER_TENANT, "/ui/kb").quit(); // the other tenant becomes known to the backplane

        WebDriver b = signIn("paula", "/ui/kb");
        assertThat(b.findElements(By.id("add-entry"))).as("a platform_admin is a tenant_admin everywhere").hasSize(1);
        for (String[] bad : List.of(new String[] {"not-a-uuid", "invalid_tenant"},
                new String[] {UUID.randomUUID().toString(), "tenant_not_found"})) {
            b.findElement(By.id("tenant-switch")).clear();
            b.findElement(By.id("tenant-switch")).sendKeys(bad[0]);
            navigate(b, By.cssSelector("form[action='/ui/tenant'] button"));
            assertThat(awaitText(b, "error-code", bad[1]::equals)).isEqualTo(bad[1]);
        }
        b.findElement(By.id("tenant-switch")).clear();
        b.findElement(By.id("tenant-switch")).sendKeys(OTHER_TENANT.toString());
        navigate(b, By.cssSelector("form[action='/ui/tenant'] button"));
        assertThat(awaitText(b, "who", t -> t.contains(OTHER_TENANT.toString()))).contains("paula");
        assertThat(b.getCurrentUrl()).endsWith("/ui/kb");
    }

    @Test
    void badInputIsAClear4xxPageNeverA500() throws Exception {
        WebDriver b = signIn("alice", "/ui/kb");
        String cookie = ConsoleRoutes.COOKIE + "=" + b.manage().getCookieNamed(ConsoleRoutes.COOKIE).getValue();
        String csrf = "_csrf=" + b.findElement(By.name("_csrf")).getAttribute("value");
        String op = "/ui/connectors/" + CONNECTOR + "/operations/demo.item0.list";
        List<String[]> cases = List.of(
                new String[] {"GET", "/ui/kb?q=%00", "", "422", "invalid_text"},
                new String[] {"GET", "/ui/kb?q=x&metadata=nokey", "", "422", "invalid_query"},
                new String[] {"GET", "/ui/connectors?status=bogus", "", "422", "invalid_status"},
                new String[] {"GET", "/ui/connectors/no-such-1.x", "", "404", "unknown_connector"},
                new String[] {"GET", op.replace("demo.item0.list", "no.such.op"), "", "404", "unknown_operation"},
                new String[] {"GET", "/ui/callback?state=made-up&code=x", "", "401", "login_failed"},
                new String[] {"GET", "/ui/callback", "", "401", "login_failed"},
                new String[] {"POST", "/ui/kb", csrf + "&slug=Bad+Slug!&body=x", "422", "slug must be"},
                new String[] {"POST", "/ui/kb", csrf + "&slug=empty-body&body=", "422", "body is empty"},
                new String[] {"POST", "/ui/kb", csrf + "&slug=nul-body&body=a%00b", "422", "invalid_text"},
                new String[] {"POST", "/ui/kb", csrf + "&slug=huge&body=" + "x".repeat(ConsoleRoutes.MAX_FORM_BYTES), "413",
                        "body_too_large"},
                new String[] {"POST", "/ui/kb", csrf + "&slug=%zz", "400", "invalid_request"},
                new String[] {"POST", op, csrf + "&is_enabled=maybe", "422", "invalid_request"},
                new String[] {"POST", op, csrf + "&safety_level=bogus", "422", "invalid_override"},
                new String[] {"POST", "/ui/tenant", csrf + "&tenant=" + OTHER_TENANT, "403", "insufficient_role"});
        try (HttpClient http = HttpClient.newHttpClient()) {
            for (String[] c : cases) {
                HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(kernel.url() + c[1])).header("Cookie", cookie);
                if (c[0].equals("POST")) {
                    req.header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(c[2]));
                }
                HttpResponse<String> r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(c[0] + " " + c[1].substring(0, Math.min(80, c[1].length())) + ": "
                        + r.body().substring(0, Math.min(600, r.body().length()))).isEqualTo(Integer.parseInt(c[3]));
                assertThat(r.body()).contains(c[4]).doesNotContain("Exception").doesNotContain("at dev.backplane");
                assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            }
            HttpResponse<String> away = http.send(HttpRequest.newBuilder(URI.create(kernel.url()
                    + "/ui/login?return=https%3A%2F%2Fevil.test%2Fui%2Fkb")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(away.statusCode()).isEqualTo(302);
            assertThat(away.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l)
                    .startsWith(keycloak.url()).doesNotContain("evil.test"));

            // login CSRF: a callback link carrying a real pending sign-in's state, opened in a browser that did not
            // start it (no binding cookie), is refused; the same state with its cookie gets past that check
            HttpResponse<String> started = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/login"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String state = java.net.URLDecoder.decode(started.headers().firstValue("Location").orElseThrow()
                    .replaceAll(".*[?&]state=([^&]+).*", "$1"), java.nio.charset.StandardCharsets.UTF_8);
            String sealed = started.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("svc_console_login="))
                    .findFirst().orElseThrow().replaceAll("^svc_console_login=([^;]*);.*", "$1");
            assertThat(started.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c)
                    .startsWith("svc_console_login=" + sealed + ";").contains("HttpOnly", "Path=/ui/callback"));
            assertThat(sealed).as("the sign-in is sealed: the cookie does not show its state").doesNotContain(state);
            HttpResponse<String> foreign = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/callback?state="
                    + java.net.URLEncoder.encode(state, java.nio.charset.StandardCharsets.UTF_8) + "&code=stolen")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(foreign.statusCode()).isEqualTo(401);
            assertThat(foreign.body()).contains("login_failed", "not started in this browser");
            HttpResponse<String> own = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/callback?state="
                    + java.net.URLEncoder.encode(state, java.nio.charset.StandardCharsets.UTF_8) + "&code=made-up"))
                    .header("Cookie", "svc_console_login=" + sealed).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(own.body()).as("past the browser check, the made-up code is what fails")
                    .doesNotContain("not started in this browser");
            // a cookie sealed for another sign-in, or altered by one character, does not carry this state
            String other = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/login")).build(),
                    HttpResponse.BodyHandlers.ofString()).headers().allValues("Set-Cookie").stream()
                    .filter(c -> c.startsWith("svc_console_login=")).findFirst().orElseThrow()
                    .replaceAll("^svc_console_login=([^;]*);.*", "$1");
            String altered = sealed.substring(0, 20) + (sealed.charAt(20) == 'A' ? 'B' : 'A') + sealed.substring(21);
            for (String forged : List.of(other, altered)) {
                HttpResponse<String> refused = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/callback?state="
                        + java.net.URLEncoder.encode(state, java.nio.charset.StandardCharsets.UTF_8) + "&code=made-up"))
                        .header("Cookie", "svc_console_login=" + forged).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(refused.statusCode()).isEqualTo(401);
                assertThat(refused.body()).contains("login_failed", "not started in this browser");
            }
        }
        assertThat(kbEntries()).doesNotContain("empty-body", "nul-body", "huge");
        assertThat(kernel.jdbc().query("SELECT safety_level FROM catalog_operation_overrides WHERE tenant_id = ? "
                + "AND op_id = 'demo.item0.list' AND safety_level IS NOT NULL", rs -> rs.getString(1), TENANT)).isEmpty();
    }

    @Test
    void pagesHaveNoSeriousOrCriticalAccessibilityViolations() throws Exception {
        String axe = axeCore();
        WebDriver b = signIn("alice", "/ui/kb");
        b.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        for (String page : List.of("/ui/kb", "/ui/kb?q=ingress", "/ui/kb/new", "/ui/connectors",
                "/ui/connectors/" + CONNECTOR, "/ui/connectors/" + CONNECTOR + "?q=list", "/ui/connectors/" + CONNECTOR
                        + "/enable", "/ui/connectors/" + CONNECTOR + "/operations/demo.item0.list", "/ui/ingest",
                "/ui/kb/ingest", "/ui", "/ui/approvals", "/ui/approvals?status=all")) {
            b.get(kernel.url() + page);
            assertAccessible(b, axe, page);
        }
    }

    /**
     * Issue 45's approval flow: carol parks a write through the CLI; bob, watching /ui/approvals, sees it arrive
     * without reloading, opens it, approves, and the write reaches the target; the request's page shows the chain of
     * audit rows (parked, approved, executed). Carol's own request offers her no approve button and her forged POST
     * is refused by four-eyes; a read_only user sees no decision form and is refused the POST; a POST without the
     * session's CSRF token is refused.
     */
    @Test
    void aParkedWriteAppearsLiveForAnotherAdminWhoApprovesItAndTheWriteRuns() throws Exception {
        CliRunner carol = carol();
        String token = carolToken();
        assertThat(kernel.patch("/api/v1/connectors/" + CONNECTOR + "/operations/demo.item2.delete", token,
                Map.of("is_enabled", true, "safety_level", "caution")).status()).isEqualTo(200);

        WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui/approvals");
        awaitLive(bob);
        ((JavascriptExecutor) bob).executeScript("window.__stayed = true;");
        CliRunner.Result parked = carol.run("operation", "call", CONNECTOR, "demo.item2.delete", "--target", "web1",
                "--params", "{\"name\": \"gone\"}", "--work-ref", "CHG-45");
        assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
        String id = uuidIn(parked.out() + parked.err());
        assertThat(TARGET_HITS).doesNotContain("DELETE /items/gone");

        String row = new WebDriverWait(bob, Duration.ofSeconds(20))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .ignoring(org.openqa.selenium.NoSuchElementException.class)
                .until(d -> d.findElement(By.cssSelector("tr[data-approval='" + id + "']")).getText());
        assertThat(((JavascriptExecutor) bob).executeScript("return window.__stayed === true;"))
                .as("the request appeared without a reload").isEqualTo(true);
        assertThat(row).contains("carol", "demo.item2.delete", "web1", "CHG-45", "pending");
        screenshot(bob, "console-approvals.png");

        navigate(bob, By.cssSelector("tr[data-approval='" + id + "'] a"));
        awaitLive(bob);
        assertThat(text(bob, "approval-status")).isEqualTo("pending");
        assertThat(text(bob, "params")).contains("gone");
        assertThat(text(bob, "preview")).as("what the call would send").startsWith("DELETE /items/gone");
        assertThat(text(bob, "requester")).isEqualTo("carol (human)");
        assertThat(bob.findElements(By.id("four-eyes"))).isEmpty();
        screenshot(bob, "console-approval.png");
        bob.findElement(By.id("reason-input")).sendKeys("change window CHG-45");
        navigate(bob, By.id("approve"));
        awaitLive(bob);
        assertThat(text(bob, "notice")).startsWith("Approved.");
        new WebDriverWait(bob, Duration.ofSeconds(20)).until(d -> TARGET_HITS.contains("DELETE /items/gone"));
        List<String> chain = new WebDriverWait(bob, Duration.ofSeconds(20)).ignoring(
                org.openqa.selenium.StaleElementReferenceException.class).until(d -> {
                    List<String> ops = d.findElements(By.cssSelector("#trail tbody tr")).stream()
                            .map(WebElement::getText).toList();
                    return ops.stream().anyMatch(t -> t.contains("demo.item2.delete") && t.contains("ok")) ? ops : null;
                });
        assertThat(chain).as("parked, approved, executed").anySatisfy(t -> assertThat(t).contains("awaiting_approval"))
                .anySatisfy(t -> assertThat(t).contains("svc.approval.approve"));
        assertThat(text(bob, "approval-status")).isEqualTo("approved");
        String axe = axeCore();
        assertAccessible(bob, axe, "/ui/approvals/" + id);

        // the audit explorer: the target's rows, the execution's full record linked to its approval, the export
        bob.get(kernel.url() + "/ui/audit?target=web1");
        List<String> rows = bob.findElements(By.cssSelector("#audit-rows tbody tr")).stream().map(WebElement::getText)
                .toList();
        assertThat(rows).anySatisfy(t -> assertThat(t).contains("demo.item2.delete", "ok", "CHG-45"))
                .anySatisfy(t -> assertThat(t).contains("svc.approval.approve"))
                .anySatisfy(t -> assertThat(t).contains("awaiting_approval", "carol"));
        assertAccessible(bob, axe, "/ui/audit?target=web1");
        screenshot(bob, "console-audit.png");
        String executed = kernel.jdbc().queryOne("SELECT id::text FROM audit_rows WHERE tenant_id = ? AND op_id = "
                + "'demo.item2.delete' AND result_status = 'ok' AND approval_request_id = ?::uuid", rs -> rs.getString(1),
                APPROVALS_TENANT, id).orElseThrow();
        bob.get(kernel.url() + "/ui/audit/rows/" + executed);
        assertThat(text(bob, "approval-link")).isEqualTo(id);
        assertThat(bob.getPageSource()).as("the target's staged password").doesNotContain(TARGET_PASSWORD);
        int exportsBefore = exports();
        String csv = download(bob, "/ui/audit/export?target=web1&format=csv");
        assertThat(csv).startsWith("audit_id,occurred_at,principal").contains("demo.item2.delete", "svc.approval.approve")
                .doesNotContain(TARGET_PASSWORD);
        assertThat(download(bob, "/ui/audit/export?target=web1&format=xml")).contains("invalid_request");
        assertThat(exports()).as("the export is audited, the refused one not").isEqualTo(exportsBefore + 1);
        bob.get(kernel.url() + "/ui/audit?since=yesterday-ish");
        assertThat(text(bob, "filter-error")).startsWith("invalid_");
        bob.get(kernel.url() + "/ui/audit/who-touched?target=web1");
        assertThat(text(bob, "touched")).contains("bob", "carol");

        // a session replayed: a runbook run's step, audited in the run's session
        assertThat(kernel.patch("/api/v1/connectors/" + CONNECTOR + "/operations/demo.item0.list", token,
                Map.of("is_enabled", true)).status()).isEqualTo(200);
        assertThat(kernel.post("/api/v1/runbooks/templates", token, Map.of("slug", "look", "yaml", """
                title: Look at the items
                description: A one-step runbook.
                target_kind: demo
                steps:
                  - name: look
                    instruction: List the items.
                    operation:
                      connector_id: demo-2.x
                      op_id: demo.item0.list
                      params: {count: 2}
                    verify: Are they listed?
                """)).status()).isEqualTo(201);
        assertThat(kernel.post("/api/v1/runbooks/templates/look/publish", token, null).status()).isEqualTo(200);
        String run = kernel.post("/api/v1/runbooks/runs", token, Map.of("slug", "look", "target", "web1")).json()
                .path("id").asText();
        assertThat(kernel.post("/api/v1/runbooks/runs/" + run + "/next", token, Map.of()).status()).isEqualTo(200);
        bob.get(kernel.url() + "/ui/audit/sessions/" + run);
        assertThat(text(bob, "timeline")).contains("demo.item0.list", "ok", "web1");
        assertAccessible(bob, axe, "/ui/audit/sessions/" + run);
        screenshot(bob, "console-session.png");
        bob.get(kernel.url() + "/ui/audit/sessions/not-a-session");
        assertThat(text(bob, "error-code")).isEqualTo("invalid_session");

        // four-eyes: carol's own request offers her no approve button, and her forged approve is refused
        CliRunner.Result second = carol.run("operation", "call", CONNECTOR, "demo.item2.delete", "--target", "web1",
                "--params", "{\"name\": \"kept\"}");
        String secondId = uuidIn(second.out() + second.err());
        WebDriver c = signIn("carol", APPROVALS_TENANT, "/ui/approvals/" + secondId);
        awaitLive(c);
        assertThat(c.findElements(By.id("approve"))).isEmpty();
        assertThat(text(c, "four-eyes")).contains("the requester");
        assertThat(c.findElements(By.id("reject"))).as("a requester may withdraw by rejecting").hasSize(1);
        assertThat(forgedPost(c, "/ui/approvals/" + secondId + "/approve", true)).isEqualTo(403);
        assertThat(forgedPost(c, "/ui/approvals/" + secondId + "/approve", false)).as("no CSRF token").isEqualTo(403);
        c.quit();
        WebDriver rita = signIn("rita", APPROVALS_TENANT, "/ui/approvals/" + secondId);
        awaitLive(rita);
        assertThat(rita.findElements(By.id("approve"))).isEmpty();
        assertThat(rita.findElements(By.id("reject"))).isEmpty();
        assertThat(rita.findElements(By.id("trail"))).as("audit rows are an operator's read").isEmpty();
        rita.get(kernel.url() + "/ui/audit");
        assertThat(text(rita, "error-code")).isEqualTo("insufficient_role");
        assertThat(forgedPost(rita, "/ui/approvals/" + secondId + "/approve", true)).isEqualTo(403);
        rita.quit();
        WebDriver erin = signIn("erin", OTHER_TENANT, "/ui/approvals?status=all");
        assertThat(erin.findElements(By.cssSelector("tr[data-approval]"))).as("another tenant's inbox").isEmpty();
        erin.get(kernel.url() + "/ui/approvals/" + secondId);
        assertThat(awaitText(erin, "error-code", "approval_not_found"::equals)).isEqualTo("approval_not_found");
        assertThat(forgedPost(erin, "/ui/approvals/" + secondId + "/approve", true)).isEqualTo(404);
        assertThat(kernel.jdbc().queryOne("SELECT status FROM governance_approvals WHERE id = ?::uuid",
                rs -> rs.getString(1), secondId)).hasValue("pending");
        assertThat(TARGET_HITS).doesNotContain("DELETE /items/kept");
    }

    /** Posts the approve form from the page {@code b} shows, with its CSRF token or without; the answer's status. */
    private static int forgedPost(WebDriver b, String path, boolean withToken) {
        Object status = ((JavascriptExecutor) b).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                const token = document.querySelector("input[name=_csrf]").value;
                fetch(arguments[0], {method: "POST", credentials: "same-origin",
                    headers: {"Content-Type": "application/x-www-form-urlencoded"},
                    body: arguments[1] ? "_csrf=" + encodeURIComponent(token) : "reason=x"})
                  .then(r => done(r.status)).catch(e => done(String(e)));""", path, withToken);
        return ((Number) status).intValue();
    }

    /** What the browser downloads from {@code path} (fetched with the page's session), as text. */
    private static String download(WebDriver b, String path) {
        return String.valueOf(((JavascriptExecutor) b).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                fetch(arguments[0], {credentials: "same-origin"}).then(r => r.text()).then(done)
                  .catch(e => done(String(e)));""", path));
    }

    private static String uuidIn(String text) {
        Matcher m = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").matcher(text);
        assertThat(m.find()).as("an approval request id in: " + text).isTrue();
        return m.group();
    }

    /**
     * Carol's CLI, logged in once through the device flow; the first call also registers the approvals tenant's
     * target {@code web1} and enables the connector there.
     */
    private static synchronized CliRunner carol() throws Exception {
        CliRunner carol = new CliRunner(work.resolve("cli-carol"));
        if (!Files.exists(work.resolve("cli-carol/svc/tokens.json"))) {
            cliLogin(carol, "carol");
            String token = carolToken();
            LoopbackTarget.on(target, "svc", TARGET_PASSWORD).register(kernel, token, "web1", "demo");
            kernel.enableConnector(token, CONNECTOR);
        }
        return carol;
    }

    /** Carol's access token, from her CLI's token file (for the set-up calls the CLI has no verb for). */
    private static String carolToken() throws Exception {
        carol();
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(work.resolve("cli-carol/svc/tokens.json")
                .toFile()).path(kernel.url()).path("access_token").asText();
    }

    /**
     * The runs page: an agent run (a scripted model on loopback answers) with its events and output, a slow run
     * cancelled from its page and seen to end without a reload, and the run's audit session replayed.
     */
    @Test
    void theRunsPageShowsAgentRunsWithTheirEventsAndCancelsARunningOne() throws Exception {
        String token = carolToken();
        assertThat(kernel.post("/api/v1/agent-principals", token, Map.of("name", "page-bot")).status()).isEqualTo(201);
        assertThat(kernel.post("/api/v1/agents", token, Map.of("name", "pager", "identity_ref", "page-bot",
                "system_prompt", "You summarise.", "toolset", Map.of("call_operation", true))).status()).isEqualTo(201);
        model.then(ScriptedModel.text("all quiet"));
        var done = kernel.post("/api/v1/agents/pager/runs", token, Map.of("input", "Anything new?", "work_ref", "CHG-77"));
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        String handle = done.json().path("handle").asText();

        WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui/runs");
        awaitLive(bob);
        assertThat(bob.findElement(By.cssSelector("tr[data-run='" + handle + "']")).getText())
                .contains("pager", "succeeded", "CHG-77");
        String axe = axeCore();
        assertAccessible(bob, axe, "/ui/runs");
        navigate(bob, By.cssSelector("tr[data-run='" + handle + "'] a"));
        awaitLive(bob);
        assertThat(text(bob, "run-status")).isEqualTo("succeeded");
        assertThat(text(bob, "events")).isNotBlank();
        assertThat(bob.findElements(By.id("cancel"))).as("a finished run cannot be cancelled").isEmpty();
        assertAccessible(bob, axe, "/ui/runs/agent/" + handle);

        model.then(ScriptedModel.slow(20_000, ScriptedModel.text("too late")));
        var started = kernel.post("/api/v1/agents/pager/runs", token, Map.of("input", "Take your time", "async", true));
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String slow = started.json().path("handle").asText();
        bob.get(kernel.url() + "/ui/runs/agent/" + slow);
        awaitLive(bob);
        screenshot(bob, "console-run.png");
        navigate(bob, By.id("cancel"));
        awaitLive(bob);
        assertThat(text(bob, "notice")).startsWith("Cancel requested");
        assertThat(awaitText(bob, "run-status", "cancelled"::equals)).isEqualTo("cancelled");
        bob.get(kernel.url() + "/ui/runs/agent/" + UUID.randomUUID());
        assertThat(text(bob, "error-code")).isEqualTo("run_not_found");
    }

    /**
     * The events page: a tenant_admin creates a source whose secret is generated and shown once, a signed
     * delivery appears on the source's page without a reload, its event page shows the envelope; rotating shows
     * the new secret once, pausing makes deliveries 404; a refused form keeps its fields but not the secret; a
     * read_only user is refused the page.
     */
    @Test
    void theEventsPageCreatesASourceShowsItsSecretOnceAndItsEventsLive() throws Exception {
        carol();
        WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui/events");
        navigate(bob, By.id("new-source"));
        bob.findElement(By.id("name")).sendKeys("page-alerts");
        new org.openqa.selenium.support.ui.Select(bob.findElement(By.id("kind"))).selectByValue("generic-json");
        navigate(bob, By.id("create-source"));
        awaitLive(bob);
        String secret = text(bob, "secret-value");
        assertThat(secret).hasSize(43);
        String ingest = text(bob, "ingest-url");
        assertThat(ingest).startsWith(kernel.url() + "/api/v1/events/ingest/");
        bob.get(kernel.url() + "/ui/events");
        String slug = ingest.substring(ingest.lastIndexOf('/') + 1);
        navigate(bob, By.cssSelector("tr[data-source='" + slug + "'] a"));
        awaitLive(bob);
        assertThat(bob.findElements(By.id("shown-secret"))).as("the secret is shown once").isEmpty();
        assertThat(bob.getPageSource()).doesNotContain(secret);
        assertAccessible(bob, axeCore(), "/ui/events/sources/" + slug);

        ((JavascriptExecutor) bob).executeScript("window.__stayed = true;");
        byte[] body = "{\"status\": \"firing\", \"service\": \"checkout\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(deliver(ingest, secret, "d-1", body)).isEqualTo(200);
        String eventRow = new WebDriverWait(bob, Duration.ofSeconds(20))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .ignoring(org.openqa.selenium.NoSuchElementException.class)
                .until(d -> d.findElement(By.cssSelector("#source-events tr[data-event]")).getText());
        assertThat(eventRow).contains(slug, "generic-json");
        assertThat(((JavascriptExecutor) bob).executeScript("return window.__stayed === true;")).isEqualTo(true);
        screenshot(bob, "console-events.png");
        navigate(bob, By.cssSelector("#source-events tr[data-event] a"));
        assertThat(text(bob, "envelope")).contains("checkout", "firing");
        assertThat(text(bob, "no-fires")).isNotBlank();
        assertAccessible(bob, axeCore(), bob.getCurrentUrl());

        bob.get(kernel.url() + "/ui/events/sources/" + slug);
        navigate(bob, By.id("rotate"));
        String rotated = text(bob, "secret-value");
        assertThat(rotated).hasSize(43).isNotEqualTo(secret);
        assertThat(text(bob, "secret-version")).startsWith("2");
        assertThat(deliver(ingest, rotated, "d-2", body)).isEqualTo(200);
        navigate(bob, By.id("pause-resume"));
        assertThat(text(bob, "source-status")).isEqualTo("paused");
        assertThat(deliver(ingest, rotated, "d-3", body)).isEqualTo(404);

        bob.get(kernel.url() + "/ui/events/new");
        bob.findElement(By.id("name")).sendKeys("page-alerts");
        bob.findElement(By.id("secret")).sendKeys("typed-secret-0123456789-abcdef");
        navigate(bob, By.id("create-source"));
        assertThat(text(bob, "form-error")).startsWith("event_source_exists");
        assertThat(bob.findElement(By.id("name")).getAttribute("value")).isEqualTo("page-alerts");
        assertThat(bob.getPageSource()).doesNotContain("typed-secret-0123456789-abcdef");

        WebDriver rita = signIn("rita", APPROVALS_TENANT, "/ui");
        rita.get(kernel.url() + "/ui/events");
        assertThat(text(rita, "error-code")).isEqualTo("insufficient_role");
    }

    /**
     * The topology page: curated edges drawn by Cytoscape.js and listed, a conflict marked, a node's dependencies
     * and a path asked from the form, an unknown node said beside the form.
     */
    @Test
    void theTopologyPageDrawsTheGraphAndAnswersWalksAndPaths() throws Exception {
        String token = carolToken();
        for (String[] e : List.of(new String[] {"web-1", "pod", "runs-on", "node-a", "node"},
                new String[] {"web-1", "pod", "runs-on", "node-b", "node"},
                new String[] {"web-1", "pod", "depends-on", "db-1", "service"},
                new String[] {"db-1", "service", "runs-on", "node-c", "node"})) {
            var r = kernel.post("/api/v1/topology/edges", token, Map.of("from", e[0], "from_kind", e[1], "kind", e[2],
                    "to", e[3], "to_kind", e[4]));
            assertThat(r.status()).as(r.body()).isIn(200, 201);
        }
        WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui/topology");
        WebDriverWait wait = new WebDriverWait(bob, Duration.ofSeconds(20));
        wait.until(d -> d.findElement(By.id("graph")).getAttribute("data-rendered-nodes") != null);
        // the tenant is shared with the other flows: these five nodes and four edges, and whatever they added
        List<String> rows = bob.findElements(By.cssSelector("#edges tbody tr")).stream().map(WebElement::getText).toList();
        assertThat(Integer.parseInt(bob.findElement(By.id("graph")).getAttribute("data-rendered-edges")))
                .as("the drawing has every listed edge").isEqualTo(rows.size());
        assertThat(Integer.parseInt(bob.findElement(By.id("graph")).getAttribute("data-rendered-nodes")))
                .isGreaterThanOrEqualTo(5);
        assertThat(bob.findElements(By.cssSelector("#graph canvas"))).isNotEmpty();
        List<String> ours = rows.stream().filter(t -> t.startsWith("web-1") || t.startsWith("db-1")).toList();
        assertThat(ours).hasSize(4).filteredOn(t -> t.contains("conflict")).hasSize(2);
        screenshot(bob, "console-topology.png");
        assertAccessible(bob, axeCore(), "/ui/topology");

        new org.openqa.selenium.support.ui.Select(bob.findElement(By.id("query"))).selectByValue("dependencies");
        bob.findElement(By.id("node")).sendKeys("web-1");
        navigate(bob, By.id("show-topology"));
        wait.until(d -> d.findElement(By.id("graph")).getAttribute("data-rendered-nodes") != null);
        assertThat(bob.findElements(By.cssSelector("#edges tbody tr"))).hasSize(4);
        bob.get(kernel.url() + "/ui/topology?query=path&node=web-1&to=node-c");
        assertThat(bob.findElements(By.cssSelector("#edges tbody tr")).stream().map(WebElement::getText).toList())
                .hasSize(2).anySatisfy(t -> assertThat(t).contains("web-1", "depends-on", "db-1"))
                .anySatisfy(t -> assertThat(t).contains("db-1", "runs-on", "node-c"));
        bob.get(kernel.url() + "/ui/topology?query=dependents&node=no-such-node");
        assertThat(text(bob, "topology-error")).startsWith("node_not_found");
        bob.get(kernel.url() + "/ui/topology?query=path&node=node-c&to=web-1");
        assertThat(text(bob, "topology-note")).startsWith("no path from");
    }

    /**
     * No console page renders a secret: a target's staged password and a parked call's secret-looking param (both
     * canaries) appear on no page, export or drawing; and every page reads on a phone-sized screen without
     * scrolling sideways.
     */
    @Test
    void noPageRendersASecretAndEveryPageFitsANarrowScreen() throws Exception {
        CliRunner carol = carol();
        String token = carolToken();
        String canary = "canary-" + UUID.randomUUID();
        LoopbackTarget.on(target, "svc", canary).register(kernel, token, "canary-host", "demo");
        assertThat(kernel.patch("/api/v1/connectors/" + CONNECTOR + "/operations/demo.item5.delete", token,
                Map.of("is_enabled", true, "safety_level", "caution")).status()).isEqualTo(200);
        CliRunner.Result parked = carol.run("operation", "call", CONNECTOR, "demo.item5.delete", "--target",
                "canary-host", "--params", "{\"name\": \"n1\", \"password\": \"" + canary + "\"}");
        assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
        String id = uuidIn(parked.out() + parked.err());

        WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui");
        List<String> pages = List.of("/ui", "/ui/approvals", "/ui/approvals?status=all", "/ui/approvals/" + id,
                "/ui/audit", "/ui/audit?target=canary-host", "/ui/audit/who-touched?target=canary-host", "/ui/runs",
                "/ui/events", "/ui/topology", "/ui/connectors", "/ui/connectors/" + CONNECTOR, "/ui/kb", "/ui/settings",
                "/ui/settings/notifications", "/ui/events/new");
        String axe = axeCore();
        for (String page : pages) {
            bob.get(kernel.url() + page);
            awaitLive(bob);
            assertThat(bob.getPageSource()).as(page).doesNotContain(canary);
            if (page.startsWith("/ui/settings") || page.equals("/ui/events/new")) {
                assertAccessible(bob, axe, page);
            }
            if (page.equals("/ui")) {
                assertThat(text(bob, "activity")).as("principals by username").contains("carol");
                screenshot(bob, "console-home.png");
            }
        }
        assertThat(download(bob, "/ui/static/pico.min.css")).as("Pico CSS is served from the kernel").contains("--pico-");
        for (String export : List.of("/ui/audit/export?format=csv", "/ui/audit/export?format=json",
                "/ui/topology/graph.json")) {
            assertThat(download(bob, export)).as(export).doesNotContain(canary);
        }
        bob.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        for (String page : pages) {
            bob.get(kernel.url() + page);
            awaitLive(bob);
            Object width = ((JavascriptExecutor) bob).executeScript(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
            assertThat(((Number) width).intValue()).as(page + " at 390 px scrolls sideways").isLessThanOrEqualTo(1);
        }
        bob.get(kernel.url() + "/ui/approvals/" + id);
        assertThat(text(bob, "no-preview")).as("a preview of a call with a secret is withheld whole").contains("withheld");
        screenshot(bob, "console-approval-phone.png");
    }

    /** The notification settings page: a refused URL comes back with the form, a saved one is REST's, audited. */
    @Test
    void theNotificationSettingsPageSavesWhatRestShowsAndRefusesBadInput() throws Exception {
        String token = carolToken();
        WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui/approvals");
        navigate(bob, By.id("notification-settings"));
        bob.findElement(By.id("mail_recipients")).sendKeys("oncall@example.com");
        bob.findElement(By.id("webhook_url")).sendKeys("ftp://hooks.example.com/x");
        navigate(bob, By.id("save-notifications"));
        assertThat(text(bob, "form-error")).startsWith("invalid_request");
        assertThat(bob.findElement(By.id("mail_recipients")).getAttribute("value")).isEqualTo("oncall@example.com");
        assertThat(kernel.get("/api/v1/tenants/current/approval-notifications", token).json().path("configured")
                .asBoolean()).as("nothing saved").isFalse();

        bob.findElement(By.id("webhook_url")).clear();
        if (!bob.findElement(By.id("enabled")).isSelected()) {
            bob.findElement(By.id("enabled")).click();
        }
        bob.findElement(By.id("event_expired")).click(); // off
        int putsBefore = notificationPuts();
        navigate(bob, By.id("save-notifications"));
        assertThat(text(bob, "notice")).isEqualTo("Saved.");
        screenshot(bob, "console-notifications.png");
        assertAccessible(bob, axeCore(), "/ui/settings/notifications");
        var rest = kernel.get("/api/v1/tenants/current/approval-notifications", token).json();
        assertThat(rest.path("enabled").asBoolean()).isTrue();
        assertThat(rest.path("mail_recipients").asText()).isEqualTo("oncall@example.com");
        assertThat(rest.path("events").toString()).contains("parked", "decided").doesNotContain("expired");
        assertThat(notificationPuts()).as("the save is on the governance trail").isEqualTo(putsBefore + 1);
        navigate(bob, By.id("clear-notifications"));
        assertThat(kernel.get("/api/v1/tenants/current/approval-notifications", token).json().path("configured")
                .asBoolean()).isFalse();

        // the tenant's name: set on /ui/settings, shown in every page's header, cleared
        navigate(bob, By.id("settings"));
        bob.findElement(By.id("display_name")).sendKeys("Approvals Team");
        navigate(bob, By.id("save-name"));
        assertThat(text(bob, "notice")).startsWith("Renamed");
        bob.get(kernel.url() + "/ui/approvals");
        assertThat(text(bob, "tenant-name")).isEqualTo("Approvals Team");
        assertThat(kernel.get("/api/v1/tenants/current", token).json().path("display_name").asText())
                .isEqualTo("Approvals Team");
        bob.get(kernel.url() + "/ui/settings");
        assertThat(((JavascriptExecutor) bob).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                fetch("/ui/settings/name", {method: "POST", credentials: "same-origin",
                    headers: {"Content-Type": "application/x-www-form-urlencoded"},
                    body: "_csrf=" + encodeURIComponent(document.querySelector("input[name=_csrf]").value)
                        + "&display_name=%20%20"}).then(r => done(r.status));""")).as("a blank name").isEqualTo(422L);
        navigate(bob, By.id("clear-name"));
        bob.get(kernel.url() + "/ui/approvals");
        assertThat(bob.findElements(By.id("tenant-name"))).isEmpty();

        WebDriver rita = signIn("rita", APPROVALS_TENANT, "/ui/approvals");
        assertThat(rita.findElements(By.id("notification-settings"))).isEmpty();
        assertThat(rita.findElements(By.id("settings"))).isEmpty();
        rita.get(kernel.url() + "/ui/settings/notifications");
        assertThat(text(rita, "error-code")).isEqualTo("insufficient_role");
    }

    /**
     * Issue 45's "done when": a new approver follows the link of the notification mail, signs in on Keycloak's
     * page, lands on the request and approves it; from opening the link to the decision takes under a minute.
     */
    @Test
    void anApproverFollowsTheMailLinkSignsInAndDecidesInUnderAMinute() throws Exception {
        CliRunner carol = carol();
        String token = carolToken();
        assertThat(kernel.put("/api/v1/tenants/current/mail-recipient-policy", token, Map.of("allowlist",
                "example.com")).status()).isEqualTo(200);
        assertThat(kernel.put("/api/v1/tenants/current/approval-notifications", token, Map.of("enabled", true,
                "mail_recipients", "bob@example.com")).status()).isEqualTo(200);
        assertThat(kernel.patch("/api/v1/connectors/" + CONNECTOR + "/operations/demo.item2.delete", token,
                Map.of("is_enabled", true, "safety_level", "caution")).status()).isEqualTo(200);
        try {
            CliRunner.Result parked = carol.run("operation", "call", CONNECTOR, "demo.item2.delete", "--target", "web1",
                    "--params", "{\"name\": \"mailed\"}");
            assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
            String id = uuidIn(parked.out() + parked.err());
            String link = null;
            for (java.time.Instant until = java.time.Instant.now().plusSeconds(30); link == null
                    && java.time.Instant.now().isBefore(until); Thread.sleep(200)) {
                link = mailedLink(id);
            }
            assertThat(link).isEqualTo(kernel.url() + "/ui/approvals/" + id);

            java.time.Instant opened = java.time.Instant.now();
            WebDriver bob = signIn("bob", APPROVALS_TENANT, "/ui/approvals/" + id);
            awaitLive(bob);
            navigate(bob, By.id("approve"));
            assertThat(text(bob, "notice")).startsWith("Approved.");
            Duration took = Duration.between(opened, java.time.Instant.now());
            new WebDriverWait(bob, Duration.ofSeconds(20)).until(d -> TARGET_HITS.contains("DELETE /items/mailed"));
            assertThat(took).as("mail link to decision").isLessThan(Duration.ofMinutes(1));
        } finally {
            kernel.send("DELETE", "/api/v1/tenants/current/approval-notifications", token, null, Map.of());
        }
    }

    /** The link to request {@code id} in a notification mail GreenMail received, or null while none has come. */
    private static String mailedLink(String id) {
        for (jakarta.mail.internet.MimeMessage m : smtp.received()) {
            Matcher link = Pattern.compile("http\\S+/ui/approvals/" + id).matcher(
                    com.icegreen.greenmail.util.GreenMailUtil.getBody(m));
            if (link.find()) {
                return link.group();
            }
        }
        return null;
    }

    /**
     * Tenant isolation of the new pages: another tenant's admin opening this tenant's request, audit row, runs,
     * event source, event and topology node by id gets their not-found answers, and the lists show none of them.
     */
    @Test
    void anotherTenantsAdminReachesNothingOfThisTenantThroughTheNewPages() throws Exception {
        String token = carolToken();
        assertThat(kernel.patch("/api/v1/connectors/" + CONNECTOR + "/operations/demo.item2.delete", token,
                Map.of("is_enabled", true, "safety_level", "caution")).status()).isEqualTo(200);
        String approval = kernel.post("/api/v1/operations/call", token, Map.of("connector_id", CONNECTOR, "op_id",
                "demo.item2.delete", "target", "web1", "params", Map.of("name", "iso"))).json().path("extras")
                .path("approval_request_id").asText();
        assertThat(approval).hasSize(36);
        assertThat(kernel.post("/api/v1/agent-principals", token, Map.of("name", "iso-bot")).status()).isEqualTo(201);
        assertThat(kernel.post("/api/v1/agents", token, Map.of("name", "iso-agent", "identity_ref", "iso-bot",
                "system_prompt", "You answer.", "toolset", Map.of("call_operation", true))).status()).isEqualTo(201);
        model.then(ScriptedModel.text("iso done"));
        String run = kernel.post("/api/v1/agents/iso-agent/runs", token, Map.of("input", "go")).json().path("handle")
                .asText();
        var source = kernel.post("/api/v1/event-sources", token, Map.of("name", "iso-source", "kind", "generic-json",
                "auth_strategy", "hmac-sha256", "secret", "iso-secret-0123456789abcdef"));
        assertThat(source.status()).as(source.body()).isEqualTo(201);
        String slug = source.json().path("slug").asText();
        assertThat(deliver(kernel.url() + "/api/v1/events/ingest/" + slug, "iso-secret-0123456789abcdef", "iso-1",
                "{\"iso\": true}".getBytes(StandardCharsets.UTF_8))).isEqualTo(200);
        String event = kernel.jdbc().queryOne("SELECT id::text FROM events WHERE source_slug = ?", rs -> rs.getString(1),
                slug).orElseThrow();
        var edge = kernel.post("/api/v1/topology/edges", token, Map.of("from", "iso-a", "from_kind", "service", "kind",
                "depends-on", "to", "iso-b", "to_kind", "service"));
        assertThat(edge.status()).as(edge.body()).isIn(200, 201);
        String row = kernel.jdbc().queryOne("SELECT id::text FROM audit_rows WHERE tenant_id = ? LIMIT 1",
                rs -> rs.getString(1), APPROVALS_TENANT).orElseThrow();

        WebDriver erin = signIn("erin", OTHER_TENANT, "/ui");
        Map<String, String> byId = new java.util.LinkedHashMap<>();
        byId.put("/ui/approvals/" + approval, "approval_not_found");
        byId.put("/ui/audit/rows/" + row, "audit_row_not_found");
        byId.put("/ui/runs/agent/" + run, "run_not_found");
        byId.put("/ui/events/sources/" + slug, "event_source_not_found");
        byId.put("/ui/events/log/" + event, "event_not_found");
        byId.forEach((page, code) -> {
            erin.get(kernel.url() + page);
            assertThat(text(erin, "error-code")).as(page).isEqualTo(code);
        });
        erin.get(kernel.url() + "/ui/audit/sessions/" + run);
        assertThat(erin.findElements(By.id("no-steps"))).as("another tenant's session replays as empty").hasSize(1);
        erin.get(kernel.url() + "/ui/topology?query=dependencies&node=iso-a");
        assertThat(text(erin, "topology-error")).startsWith("node_not_found");
        for (String page : List.of("/ui", "/ui/approvals?status=all", "/ui/runs", "/ui/events", "/ui/audit",
                "/ui/topology")) {
            erin.get(kernel.url() + page);
            awaitLive(erin);
            assertThat(erin.getPageSource()).as(page).doesNotContain(approval, run, slug, "iso-a", "iso-agent");
        }
    }

    /** The audit rows of the approvals tenant's exports. */
    private static int exports() {
        return kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id = 'svc.audit.export'",
                rs -> rs.getInt(1), APPROVALS_TENANT).orElseThrow();
    }

    /** The governance rows of the approvals tenant's notification-settings saves (console and REST alike). */
    private static int notificationPuts() {
        return kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id = "
                + "'svc.governance.PUT /api/v1/tenants/current/approval-notifications'", rs -> rs.getInt(1),
                APPROVALS_TENANT).orElseThrow();
    }

    /** Delivers {@code body} to an event source with a Standard Webhooks signature; the answer's status. */
    private static int deliver(String url, String secret, String id, byte[] body) throws Exception {
        long ts = java.time.Instant.now().getEpochSecond();
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
        String signature = "v1," + java.util.Base64.getEncoder().encodeToString(mac.doFinal(body));
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                    .header("webhook-id", id).header("webhook-timestamp", String.valueOf(ts))
                    .header("webhook-signature", signature).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    /** Logs {@code user} in through the CLI's device flow, approving it on Keycloak's pages. */
    private static void cliLogin(CliRunner cli, String user) throws Exception {
        CliRunner.Running running = cli.start("login", kernel.url(), "--insecure-allow-http");
        keycloak.approveDevice(running.awaitErr(DEVICE_URL, Duration.ofSeconds(30)), user, PASSWORD);
        CliRunner.Result r = running.result().get();
        assertThat(r.exitCode()).as(r.toString()).isZero();
    }

    /** Runs axe-core on the page {@code b} shows: its rules ran, and none found a serious or critical violation. */
    private static void assertAccessible(WebDriver b, String axe, String page) throws Exception {
        b.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        awaitLive(b);
        ((JavascriptExecutor) b).executeScript(axe);
        Object answer = ((JavascriptExecutor) b).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document).then(r => done(JSON.stringify({passes: r.passes.length, serious: r.violations
                    .filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => v.id + ': ' + v.help + ' at ' + v.nodes.map(n => n.target).join(' '))})))
                  .catch(e => done(JSON.stringify({error: String(e)})));""");
        com.fasterxml.jackson.databind.JsonNode result = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(String.valueOf(answer));
        assertThat(result.path("passes").asInt()).as("axe-core ran its rules on " + page + ": " + answer)
                .isPositive();
        assertThat(result.path("serious")).as("serious or critical violations on " + page).isEmpty();
        Object width = ((JavascriptExecutor) b).executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(((Number) width).intValue()).as(page + " scrolls sideways").isLessThanOrEqualTo(1);
    }

    /**
     * axe-core from the npm registry (pinned), installed once into the cache with npm; the test skips and
     * says why where npm is missing or the install fails.
     */
    private static String axeCore() throws Exception {
        Path home = Path.of(System.getProperty("user.home"), ".cache", "svc", "axe-core-" + AXE_VERSION);
        Path script = home.resolve("node_modules/axe-core/axe.min.js");
        if (!Files.isRegularFile(script)) {
            Process npm;
            try {
                npm = new ProcessBuilder("npm", "install", "axe-core@" + AXE_VERSION, "--prefix", home.toString(),
                        "--no-audit", "--no-fund").redirectErrorStream(true).start();
            } catch (java.io.IOException noNpm) {
                Assumptions.abort("npm is not installed: the axe-core accessibility check skips");
                throw noNpm;
            }
            String out = new String(npm.getInputStream().readAllBytes());
            Assumptions.assumeTrue(npm.waitFor() == 0 && Files.isRegularFile(script),
                    "npm could not install axe-core " + AXE_VERSION + ": " + out);
        }
        return Files.readString(script);
    }

    private List<String> kbEntries() {
        return kernel.jdbc().query("SELECT slug FROM kb_entries WHERE tenant_id = ?", rs -> rs.getString(1), TENANT);
    }

    private int connectorOverrides() {
        return kernel.jdbc().queryOne("SELECT count(*) FROM catalog_operation_overrides WHERE tenant_id = ? AND connector_id = ?",
                rs -> rs.getInt(1), TENANT, CONNECTOR).orElse(0);
    }

    private List<String> auditOps() {
        Jdbc jdbc = kernel.jdbc();
        return jdbc.query("SELECT op_id FROM audit_rows WHERE tenant_id = ? AND principal_kind = 'human'",
                rs -> rs.getString(1), TENANT);
    }
}
