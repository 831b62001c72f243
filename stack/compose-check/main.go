// compose-check validates docker-compose.yml with the Compose Specification's own loader (compose-go), once
// per profile set, the way `docker compose` loads it: interpolation with .env, schema validation,
// normalization and the consistency checks (a service depending on one that the profile set disables fails).
//
//	compose-check [-f docker-compose.yml] [-profiles ",load"]   (a comma-separated list of profile sets;
//	                                                              the empty set is the default stack)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	file := flag.String("f", "docker-compose.yml", "the compose file")
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
		services, err := load(*file, profiles)
		if err != nil {
			fmt.Fprintf(os.Stderr, "compose-check: %s with %s: %v\n", *file, label, err)
			failed = true
			continue
		}
		fmt.Printf("compose-check: %s with %s: valid, services %s\n", *file, label, strings.Join(services, " "))
	}
	if failed {
		os.Exit(1)
	}
}

func load(file string, profiles []string) ([]string, error) {
	options, err := cli.NewProjectOptions([]string{file},
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
	project, err := options.LoadProject(context.Background())
	if err != nil {
		return nil, err
	}
	return project.ServiceNames(), nil
}
