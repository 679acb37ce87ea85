#!/usr/bin/env bash
# A local multi-process changegrid grid on this machine: ZooKeeper, a private MariaDB source, two
# relays, a consumer group of three and the web console, each its own JVM (docs/cluster.md,
# docs/operations.md).
#
#   deploy/bin/local-cluster.sh start [--dir local-cluster] [--consumers 3] [--partitions 12]
#                                     [--session-timeout 30s] [--relays 2] [--secure] [--no-console]
#   deploy/bin/local-cluster.sh add-consumer --name c4
#   deploy/bin/local-cluster.sh status
#   deploy/bin/local-cluster.sh stop
#
# It runs the classes on CHANGEGRID_CLASSPATH if set (the tests pass theirs), else the deploy jar
# built by: mvn -q -pl deploy -am package -DskipTests
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/../target/changegrid-local-grid.jar"
classpath="${CHANGEGRID_CLASSPATH:-$jar}"
if [[ -z "${CHANGEGRID_CLASSPATH:-}" && ! -f "$jar" ]]; then
    echo "local-cluster: $jar is missing; build it with: mvn -q -pl deploy -am package -DskipTests" >&2
    exit 2
fi
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"

exec "$java_bin" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -Dlogback.configurationFile=io/changegrid/deploy/cluster/logback-launcher.xml \
    -cp "$classpath" io.changegrid.deploy.cluster.LocalClusterMain "$@"
