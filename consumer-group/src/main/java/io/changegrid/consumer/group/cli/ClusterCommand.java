package io.changegrid.consumer.group.cli;

import picocli.CommandLine.Command;

/** {@code consumer cluster ...}: commands about consumer groups. */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = "Commands about consumer groups.",
        subcommands = {ClusterStatusCommand.class})
public final class ClusterCommand {}
