"""Table options as JSON, validated by each game (issue 15): Family Business's columns
``reaction_seconds``, ``advanced`` and ``stacked_deck`` move into ``options``; the seat
count is bounded 1 to 20 (each game checks its own player count)."""

from django.db import migrations, models


def columns_to_options(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.all().iterator():
        table.options = {
            "reaction_seconds": table.reaction_seconds,
            "advanced": table.advanced,
            "stacked_deck": list(table.stacked_deck or []),
        }
        table.save(update_fields=["options"])


def options_to_columns(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.all().iterator():
        options = table.options or {}
        table.reaction_seconds = options.get("reaction_seconds", 10)
        table.advanced = options.get("advanced", False)
        table.stacked_deck = options.get("stacked_deck", [])
        table.save(update_fields=["reaction_seconds", "advanced", "stacked_deck"])


class Migration(migrations.Migration):
    dependencies = [("games", "0006_standing_preference")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(columns_to_options, options_to_columns),
        migrations.RemoveField(model_name="table", name="reaction_seconds"),
        migrations.RemoveField(model_name="table", name="advanced"),
        migrations.RemoveField(model_name="table", name="stacked_deck"),
        migrations.RemoveConstraint(model_name="table", name="table_seats_2_6"),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(seats__gte=1) & models.Q(seats__lte=20),
                name="table_seats_1_20",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="turn_action",
            field=models.CharField(
                choices=[("discard", "Discard"), ("minimal", "Minimal"), ("bot", "Bot")],
                default="discard",
                max_length=10,
            ),
        ),
    ]
