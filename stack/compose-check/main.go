// compose-check validates docker-compose.yml with the Compose Specification's own loader (compose-go), once
// per profile set, the way `docker compose` loads it: interpolation with .env, schema validation,
// normalization and the consistency checks (a service depending on one that the profile set disables fails).
//
//	compose-check [-f docker-compose.yml] [-profiles ",load"]   (a comma-separated list of profile sets;
//	                                                              the empty set is the default stack)
//
// Then it applies perflab's rules for a closed stack (docs/deployment-security.md) to the loaded project:
// every published port is bound to loopback (host_ip 127.0.0.1 or ::1) and no service uses the host's
// network; the services named wiremock and toxiproxy publish no port (WireMock's /__admin API shares its
// port, Toxiproxy's API changes what the app sees); the service named redis requires a password
// (requirepass in its command or entrypoint). testdata/bad-*.yml each break one rule (main_test.go,
// compose-check.sh -self-test).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// loopback are the host addresses a published port may be bound to.
var loopback = map[string]bool{"127.0.0.1": true, "::1": true, "[::1]": true}

// unpublished are the services that must publish no port at all.
var unpublished = []string{"wiremock", "toxiproxy"}

func main() {
	file := flag.String("f", "docker-compose.yml", "the compose file, or several comma-separated (an override after the file it overrides)")
	sets := flag.String("profiles", ",load", "profile sets to load, comma-separated; '+' joins profiles of one set")
	flag.Parse()
	failed := false
	for _, set := range strings.Split(*sets, ",") {
		var profiles []string
		if set != "" {
			profiles = strings.Split(set, "+")
		}
		label := "no profile"
		if len(profiles) > 0 {
			label = "profile " + strings.Join(profiles, "+")
		}
		project, err := load(strings.Split(*file, ","), profiles)
		if err != nil {
			fmt.Fprintf(os.Stderr, "compose-check: %s with %s: %v\n", *file, label, err)
			failed = true
			continue
		}
		if problems := closed(project); len(problems) > 0 {
			for _, problem := range problems {
				fmt.Fprintf(os.Stderr, "compose-check: %s with %s: %s\n", *file, label, problem)
			}
			failed = true
			continue
		}
		fmt.Printf("compose-check: %s with %s: valid and closed (ports on loopback, redis with a password), services %s\n",
			*file, label, strings.Join(project.ServiceNames(), " "))
	}
	if failed {
		os.Exit(1)
	}
}

func load(files []string, profiles []string) (*types.Project, error) {
	options, err := cli.NewProjectOptions(files,
		cli.WithOsEnv,
		cli.WithDotEnv,
		cli.WithProfiles(profiles),
		cli.WithInterpolation(true),
		cli.WithNormalization(true),
		cli.WithConsistency(true),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		return nil, err
	}
	return options.LoadProject(context.Background())
}

// closed lists what breaks perflab's rules for a closed stack, one line per problem, in service order.
func closed(project *types.Project) []string {
	var problems []string
	for _, name := range project.ServiceNames() {
		service := project.Services[name]
		if service.NetworkMode == "host" {
			problems = append(problems, fmt.Sprintf("service %s uses network_mode host: its ports bypass the loopback binding", name))
		}
		for _, port := range service.Ports {
			host := port.HostIP
			if host == "" {
				host = "*" // every interface of the host
			}
			published := fmt.Sprintf("%s:%s->%d", host, port.Published, port.Target)
			for _, closedService := range unpublished {
				if name == closedService {
					problems = append(problems, fmt.Sprintf("service %s publishes %s: it must publish no port", name, published))
				}
			}
			if !loopback[port.HostIP] {
				problems = append(problems, fmt.Sprintf("service %s publishes %s on all interfaces or a non-loopback address: "+
					"bind it to 127.0.0.1 (\"127.0.0.1:${PORT}:%d\")", name, published, port.Target))
			}
		}
		if name == "redis" {
			command := strings.Join(append(append([]string{}, service.Entrypoint...), service.Command...), " ")
			if !strings.Contains(command, "requirepass") {
				problems = append(problems, "service redis runs without a password: its command has no requirepass")
			}
		}
	}
	return problems
}
