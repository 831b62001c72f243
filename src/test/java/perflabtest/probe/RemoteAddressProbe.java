package perflabtest.probe;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test only, imported by the one IT that needs it (outside {@code dev.perflab}, so no other context scans it): the
 * client address the app sees, after Tomcat's RemoteIpValve has read or ignored X-Forwarded-For.
 */
@RestController
public class RemoteAddressProbe {

    public static final String PATH = "/test-probe/remote-address";

    @GetMapping(PATH)
    String remoteAddress(HttpServletRequest request) {
        return request.getRemoteAddr();
    }
}
