package dev.mcpx.sample.secure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /secure/calls}: what the secure upstream saw, the subject of each tool call and
 * how many tokens the authorization server issued (and exchanged).
 */
@RestController
public class SecureController {

	private final SecureCalls calls;

	SecureController(SecureCalls calls) {
		this.calls = calls;
	}

	@GetMapping("/secure/calls")
	Map<String, Object> calls() {
		List<SecureCalls.Call> seen = this.calls.calls();
		Map<String, Object> shown = new LinkedHashMap<>();
		shown.put("calls", seen);
		shown.put("tokensIssued", this.calls.tokensIssued());
		shown.put("tokensExchanged", this.calls.tokensExchanged());
		return shown;
	}

}
