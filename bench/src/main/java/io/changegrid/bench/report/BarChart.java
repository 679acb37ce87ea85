package io.changegrid.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A grouped bar chart written as PNG with plain Java2D (headless): categories along x, one bar per
 * series in each, a label over every bar, an optional dashed reference line. A charting library
 * would add a dependency tree to keep convergent for one kind of chart that fits in this class.
 *
 * <p>Not thread-safe; build, then {@link #write}.
 */
final class BarChart {

    private static final int WIDTH = 960;
    private static final int HEIGHT = 540;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 80;
    private static final int BOTTOM = 90;
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd)
    };

    /** One series: a value (NaN for none) and a label per category. */
    record Series(String name, double[] values, String[] labels) {}

    private final String title;
    private final String yAxis;
    private final List<String> categories;
    private final List<Series> series = new ArrayList<>();
    private String referenceName;
    private double referenceValue = Double.NaN;

    BarChart(String title, String yAxis, List<String> categories) {
        this.title = title;
        this.yAxis = yAxis;
        this.categories = List.copyOf(categories);
    }

    BarChart series(String name, double[] values, String[] labels) {
        series.add(new Series(name, values.clone(), labels.clone()));
        return this;
    }

    /** A dashed horizontal line across the plot, e.g. the bare reader's ceiling. */
    BarChart reference(String name, double value) {
        this.referenceName = name;
        this.referenceValue = value;
        return this;
    }

    void write(Path file) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(
                    RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            draw(g);
        } finally {
            g.dispose();
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(image, "png", file.toFile());
    }

    private void draw(Graphics2D g) {
        double max = Double.isNaN(referenceValue) ? 0 : referenceValue;
        for (Series s : series) {
            for (double value : s.values()) {
                if (!Double.isNaN(value)) {
                    max = Math.max(max, value);
                }
            }
        }
        double step = niceStep(max / 5);
        double top = Math.max(step, Math.ceil(max * 1.1 / step) * step);
        int plotWidth = WIDTH - LEFT - RIGHT;
        int plotHeight = HEIGHT - TOP - BOTTOM;

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        centered(g, title, WIDTH / 2, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double tick = 0; tick <= top + step / 2; tick += step) {
            int y = TOP + plotHeight - (int) Math.round(tick / top * plotHeight);
            g.setColor(new Color(0xdddddd));
            g.drawLine(LEFT, y, LEFT + plotWidth, y);
            g.setColor(Color.DARK_GRAY);
            String text = compact(tick);
            g.drawString(text, LEFT - 8 - g.getFontMetrics().stringWidth(text), y + 4);
        }
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.setColor(Color.BLACK);
        centered(rotated, yAxis, -(TOP + plotHeight / 2), 22);
        rotated.dispose();

        int groups = categories.size();
        int groupWidth = plotWidth / Math.max(1, groups);
        int barWidth = Math.min(90, (int) (groupWidth * 0.8 / Math.max(1, series.size())));
        for (int c = 0; c < groups; c++) {
            int groupLeft = LEFT + c * groupWidth + (groupWidth - barWidth * series.size()) / 2;
            for (int s = 0; s < series.size(); s++) {
                double value = series.get(s).values()[c];
                if (Double.isNaN(value)) {
                    continue;
                }
                int height = (int) Math.round(value / top * plotHeight);
                int x = groupLeft + s * barWidth;
                g.setColor(COLORS[s % COLORS.length]);
                g.fillRect(x + 2, TOP + plotHeight - height, barWidth - 4, height);
                g.setColor(Color.BLACK);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
                // Label lines stacked above the bar, the last one nearest to it.
                String[] lines = series.get(s).labels()[c].split("\n");
                int y = TOP + plotHeight - height - 6;
                for (int line = lines.length - 1; line >= 0; line--, y -= 13) {
                    centered(g, lines[line], x + barWidth / 2, y);
                }
            }
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            centered(
                    g,
                    categories.get(c),
                    LEFT + c * groupWidth + groupWidth / 2,
                    TOP + plotHeight + 20);
        }
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, TOP + plotHeight, LEFT + plotWidth, TOP + plotHeight);
        g.drawLine(LEFT, TOP, LEFT, TOP + plotHeight);
        if (!Double.isNaN(referenceValue)) {
            int y = TOP + plotHeight - (int) Math.round(referenceValue / top * plotHeight);
            g.setColor(new Color(0xd62728));
            g.setStroke(
                    new BasicStroke(
                            2f,
                            BasicStroke.CAP_BUTT,
                            BasicStroke.JOIN_MITER,
                            10f,
                            new float[] {8f, 6f},
                            0f));
            g.drawLine(LEFT, y, LEFT + plotWidth, y);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            g.drawString(referenceName + " " + compact(referenceValue), LEFT + 6, y - 6);
        }
        legend(g, TOP + plotHeight + 45);
    }

    private void legend(Graphics2D g, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics metrics = g.getFontMetrics();
        int total = 0;
        for (Series s : series) {
            total += 22 + metrics.stringWidth(s.name()) + 24;
        }
        int x = (WIDTH - total) / 2;
        for (int i = 0; i < series.size(); i++) {
            g.setColor(COLORS[i % COLORS.length]);
            g.fillRect(x, y - 11, 16, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(i).name(), x + 22, y);
            x += 22 + metrics.stringWidth(series.get(i).name()) + 24;
        }
    }

    private static void centered(Graphics2D g, String text, int x, int y) {
        g.drawString(text, x - g.getFontMetrics().stringWidth(text) / 2, y);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
    static double niceStep(double rough) {
        if (rough <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double factor : new double[] {1, 2, 5, 10}) {
            if (factor * power >= rough) {
                return factor * power;
            }
        }
        return 10 * power;
    }

    /** 1.5M, 250k, 900. */
    static String compact(double value) {
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", value / 1e6).replace(".0M", "M");
        }
        if (value >= 1e3) {
            return String.format(Locale.ROOT, "%.0fk", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }
}
