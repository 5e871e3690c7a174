package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OperationNamesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "getByRealm, get_by_realm",
            "AccountService_ListAccounts, account_service_list_accounts",
            "token-look-up-2, token_look_up_2",
            "listCoreV1Namespace, list_core_v1_namespace",
            "readAppsV1beta1NamespacedDeployment, read_apps_v1beta1_namespaced_deployment",
            "getHTTPServerURL, get_http_server_url",
            "'List all  the things!', list_all_the_things",
            "__private__name__, private_name",
            "ÜberCool, ber_cool",
            "v2Foo, v2_foo",
            "already_snake, already_snake",
    })
    void snakeCasesOperationIds(String operationId, String expected) {
        assertThat(OperationNames.snake(operationId)).isEqualTo(expected);
    }

    @Test
    void snakeOfNothingUsableIsEmpty() {
        assertThat(OperationNames.snake("---")).isEmpty();
        assertThat(OperationNames.snake("日本")).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "Pet Store, pet_store",
            "core_v1, core_v1",
            "'  Users & Groups  ', users_groups",
            "ApplicationService, applicationservice",
            "---, ''",
    })
    void slugsTags(String tag, String expected) {
        assertThat(OperationNames.slug(tag)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            "GET, /{realm}/users/{id}, get_users_by_id",
            "DELETE, /pets/{petId}, delete_pets_by_pet_id",
            "POST, /, post",
            "PUT, /{a}/{b}, put",
            "GET, /api/v2.0/projects/{project_name}/repositories, get_api_v2_0_projects_by_project_name_repositories",
    })
    void derivesNamesFromMethodAndPath(String method, String path, String expected) {
        assertThat(OperationNames.derived(method, path)).isEqualTo(expected);
    }

    @Test
    void firstLiteralSegmentSkipsParameters() {
        assertThat(OperationNames.firstLiteralSegment("/{realm}/users/{id}")).isEqualTo("users");
        assertThat(OperationNames.firstLiteralSegment("/{realm}")).isNull();
        assertThat(OperationNames.firstLiteralSegment("/")).isNull();
    }
}
