#!/bin/sh
# The heap preset of a set of Spring profiles (seed 001), the one definition that ./perflab and the Dockerfile use:
# -Xms = -Xmx (1g) for route-after, route-binary and after (no heap growth under load), else -Xmx1g only.
#   sh stack/heap-preset.sh "route-after,wallet-after"  ->  -Xms1g -Xmx1g
case ",$1," in
  *,route-after,*|*,route-binary,*|*,after,*) echo "-Xms1g -Xmx1g" ;;
  *) echo "-Xmx1g" ;;
esac
