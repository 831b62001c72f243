package dev.perflab.wallet;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The wallet's request constraints in the OpenAPI description, read from what the validation itself uses
 * ({@link Transfers#PHONE_PATTERN}, {@link Transfers#NOT_BLANK}, {@link Transfers#AMOUNT_STEP} and the
 * {@code max-amount} knob), so a client generator or contract tester sees exactly the requests the app accepts; and
 * the transfer's real answer, 201 with {@code Location} and {@code Idempotent-Replayed}.
 */
@Component
class WalletApiDocs implements OpenApiCustomizer {

    private final WalletKnobs knobs;

    WalletApiDocs(WalletKnobs knobs) {
        this.knobs = knobs;
    }

    @Override
    public void customise(OpenAPI openApi) {
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        transferRequest(schemas.get("TransferRequest"));
        Schema<?> phoneView = schemas.get("PhoneView");
        phoneView.setRequired(List.of("phone"));
        property(phoneView, "phone").pattern(Transfers.PHONE_PATTERN);
        Operation transfer = openApi.getPaths().get("/api/transfers").getPost();
        created(transfer);
        for (Parameter parameter : transfer.getParameters()) {
            if (parameter.getName().equals("Idempotency-Key")) {
                parameter.setSchema(new StringSchema().format("uuid"));
            }
        }
    }

    private void transferRequest(Schema<?> request) {
        request.setRequired(List.of("receiverPhone", "amount", "pin"));
        property(request, "receiverPhone").pattern(Transfers.PHONE_PATTERN);
        Schema<?> amount = property(request, "amount");
        amount.setExclusiveMinimumValue(BigDecimal.ZERO);
        amount.setMaximum(knobs.maxAmount());
        amount.setMultipleOf(Transfers.AMOUNT_STEP);
        property(request, "pin").minLength(1).pattern(Transfers.NOT_BLANK);
    }

    private static void created(Operation transfer) {
        ApiResponse ok = transfer.getResponses().remove("200");
        ok.setDescription("Created, or the stored answer of an earlier request with this Idempotency-Key");
        ok.addHeaderObject("Location", new Header().description("/api/transfers/{transferId}")
                .required(true).schema(new StringSchema()));
        ok.addHeaderObject("Idempotent-Replayed", new Header()
                .description("true when this is the stored answer of an earlier request with the same key")
                .required(true).schema(new BooleanSchema()));
        transfer.getResponses().addApiResponse("201", ok);
    }

    private static Schema<?> property(Schema<?> object, String name) {
        return (Schema<?>) object.getProperties().get(name);
    }
}
